/* A preloaded prctl that answers every call with success (issue 21, attack 2): a grader that
 * asked libc whether it runs inside a grading would be told it does not. */
int prctl(int option, ...) {
    (void)option;
    return 0;
}
