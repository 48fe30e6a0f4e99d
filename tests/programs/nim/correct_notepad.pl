#!/usr/bin/perl
# CS 135 Assignment 4 - Nim, in Perl: <STDIN> a line at a time, output unbuffered ($| = 1).
# (correct.pl saved by Windows Notepad: a UTF-8 byte order mark, CRLF line ends.)
# Exits quietly at end of input.
use strict;
use warnings;

$| = 1;

sub read_line {
    my $line = <STDIN>;
    exit 0 unless defined $line;
    $line =~ s/^\s+|\s+$//g;
    return $line;
}

sub ask_yes_no {
    my ($question) = @_;
    while (1) {
        print $question;
        my $answer = read_line();
        return uc($answer) eq 'Y' if $answer =~ /^[YyNn]$/;
        print "Please, answer Y or N.\n";
    }
}

sub ask_remove {
    while (1) {
        print "Remove (1 - 3): ";
        my $answer = read_line();
        if ($answer !~ /^-?\d+$/) {
            print "Please, type 1, 2, or 3 as your response.\n";
        } elsif ($answer < 1) {
            print "Must remove at least one match.\n";
        } elsif ($answer > 3) {
            print "Cannot remove more than three matches.\n";
        } else {
            return $answer;
        }
    }
}

sub matches_text {
    my ($count) = @_;
    return join '', map { $_ % 5 == 0 ? '| ' : '|' } 1 .. $count;
}

sub computer_move {
    my ($matches) = @_;
    my %take = (0 => 3, 3 => 2);
    return $take{ $matches % 4 } // 1;
}

print "The game of Nim. The player to remove the last match loses.\n";
while (1) {
    my $player_turn = ask_yes_no("Would you like to go first? (Y/N): ");
    my $matches = 21;
    while (1) {
        printf "%s Turn - Matches: %s\n", ($player_turn ? 'Player' : 'Computer'), matches_text($matches);
        if ($matches == 1) {
            print $player_turn ? "Game Over - Computer wins.\n" : "Game Over - Player wins.\n";
            last;
        }
        if ($player_turn) {
            $matches -= ask_remove();
        } else {
            my $take = computer_move($matches);
            print "Computer removes $take.\n";
            $matches -= $take;
        }
        $player_turn = !$player_turn;
    }
    last unless ask_yes_no("Would you like to play again? (Y/N): ");
}
