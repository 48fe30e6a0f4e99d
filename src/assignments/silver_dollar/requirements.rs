//! Silver Dollar (handout 001, Java): two classes `CoinStrip` and `PlayGame`, `PlayGame` only
//! `main`, all output in `PlayGame`, `static` only on `main` and constants, `Scanner` and
//! `Random` used, the board from `CoinStrip.toString`.

use tree_sitter::Node;

use crate::analyze::requirements::{Requirement, Verdict};
use crate::analyze::{ancestor, Program, SourceFile, SourceLanguage};
use crate::results::Finding;

/// Silver Dollar's requirements on the code.
pub(crate) const REQUIREMENTS: &[Requirement] = &[
    Requirement {
        name: "two-classes",
        quote: "You should write your program in two Java classes: a class called `CoinStrip` representing the game board, and a class called `PlayGame` that actually runs the game.",
        language: SourceLanguage::Java,
        points: 2.0,
        check: two_classes,
    },
    Requirement {
        name: "playgame-only-main",
        quote: "Your `PlayGame` class will simply be a container for your `main` method, and should not need any other methods.",
        language: SourceLanguage::Java,
        points: 1.0,
        check: playgame_only_main,
    },
    Requirement {
        name: "output-in-playgame",
        quote: "Note that all output produced by the program (i.e., all calls to `System.out.print` or `System.out.println`) should be within `PlayGame` rather than `CoinStrip`.",
        language: SourceLanguage::Java,
        points: 2.0,
        check: output_in_playgame,
    },
    Requirement {
        name: "static-main-and-constants",
        quote: "the **only** places you should use `static` in this lab are (1) your `main` method declaration, and (2) the declarations of any constants you use.",
        language: SourceLanguage::Java,
        points: 1.0,
        check: static_main_and_constants,
    },
    Requirement {
        name: "scanner",
        quote: "Use the built-in `Scanner` class to handle reading user input",
        language: SourceLanguage::Java,
        points: 1.0,
        check: scanner,
    },
    Requirement {
        name: "random",
        quote: "Use the built-in `Random` class to generate the initial board configuration",
        language: SourceLanguage::Java,
        points: 1.0,
        check: random,
    },
    Requirement {
        name: "tostring",
        quote: "This representation should be returned by the `toString` method of the `CoinStrip` class.",
        language: SourceLanguage::Java,
        points: 1.0,
        check: tostring,
    },
];

/// The name of a declaration node (class, method).
fn name_of<'f>(file: &'f SourceFile, node: Node) -> &'f str {
    node.child_by_field_name("name")
        .map_or("", |n| file.text_of(n))
}

/// The class declarations named `name`.
fn classes<'p>(program: &'p Program, name: &str) -> Vec<(&'p SourceFile, Node<'p>)> {
    program
        .all(&["class_declaration"])
        .into_iter()
        .filter(|(file, class)| name_of(file, *class) == name)
        .collect()
}

/// The innermost class (or enum, record, interface) `node` is in, by name.
fn enclosing_class<'f>(file: &'f SourceFile, node: Node) -> &'f str {
    ancestor(
        node,
        &[
            "class_declaration",
            "enum_declaration",
            "record_declaration",
            "interface_declaration",
        ],
    )
    .map_or("", |c| name_of(file, c))
}

fn two_classes(program: &Program) -> Verdict {
    let mut findings = Vec::new();
    let mut missing = Vec::new();
    for wanted in ["CoinStrip", "PlayGame"] {
        match classes(program, wanted).first() {
            Some((file, class)) => findings.push(file.finding(*class, format!("class `{wanted}`"))),
            None => missing.push(format!("`{wanted}`")),
        }
    }
    if missing.is_empty() {
        Verdict::pass("classes CoinStrip and PlayGame are there", findings)
    } else {
        Verdict::fail(format!("no class {}", missing.join(" or ")), findings)
    }
}

/// The methods declared directly in a class body.
fn methods<'t>(class: Node<'t>) -> Vec<Node<'t>> {
    let Some(body) = class.child_by_field_name("body") else {
        return Vec::new();
    };
    let mut cursor = body.walk();
    body.named_children(&mut cursor)
        .filter(|n| n.kind() == "method_declaration")
        .collect()
}

fn playgame_only_main(program: &Program) -> Verdict {
    let found = classes(program, "PlayGame");
    let Some((file, class)) = found.first() else {
        return Verdict::fail("there is no class PlayGame", Vec::new());
    };
    let others: Vec<Finding> = methods(*class)
        .into_iter()
        .filter(|m| name_of(file, *m) != "main")
        .map(|m| {
            file.finding(
                m,
                format!("PlayGame declares method `{}`", name_of(file, m)),
            )
        })
        .collect();
    if others.is_empty() {
        Verdict::pass(
            "PlayGame declares only main",
            vec![file.finding(*class, "class `PlayGame`")],
        )
    } else {
        Verdict::fail(
            format!("PlayGame declares {} method(s) besides main", others.len()),
            others,
        )
    }
}

fn output_in_playgame(program: &Program) -> Verdict {
    let mut outside = Vec::new();
    let mut inside = 0;
    for (file, call) in program.all(&["method_invocation"]) {
        let on_system_out = call.child_by_field_name("object").is_some_and(|o| {
            file.text_of(o).split_whitespace().collect::<String>() == "System.out"
        });
        if !on_system_out {
            continue;
        }
        let class = enclosing_class(file, call);
        // A `main` elsewhere (test code in CoinStrip, a "Bonus" variant) is a program of its
        // own, not the game's output; the rule is that the board's methods do not print.
        let in_main =
            ancestor(call, &["method_declaration"]).is_some_and(|m| name_of(file, m) == "main");
        if class == "PlayGame" || in_main {
            inside += 1;
        } else {
            let method = name_of(file, call);
            outside.push(file.finding(call, format!("System.out.{method} in class `{class}`")));
        }
    }
    if outside.is_empty() {
        Verdict::pass(
            format!("all {inside} System.out call(s) are in PlayGame"),
            Vec::new(),
        )
    } else {
        Verdict::fail(
            format!("{} System.out call(s) outside PlayGame", outside.len()),
            outside,
        )
    }
}

/// Whether a modifiers node holds the keyword `word`.
fn has_modifier(file: &SourceFile, declaration: Node, word: &str) -> bool {
    let mut cursor = declaration.walk();
    let modifiers = declaration
        .children(&mut cursor)
        .find(|c| c.kind() == "modifiers");
    modifiers.is_some_and(|m| {
        let mut inner = m.walk();
        let found = m.children(&mut inner).any(|k| file.text_of(k) == word);
        found
    })
}

fn static_main_and_constants(program: &Program) -> Verdict {
    let mut findings = Vec::new();
    let kinds = [
        "method_declaration",
        "field_declaration",
        "class_declaration",
    ];
    for (file, declaration) in program.all(&kinds) {
        if !has_modifier(file, declaration, "static") {
            continue;
        }
        let problem = match declaration.kind() {
            "method_declaration" if name_of(file, declaration) != "main" => {
                Some(format!("static method `{}`", name_of(file, declaration)))
            }
            "field_declaration" if !has_modifier(file, declaration, "final") => {
                let names: Vec<&str> = {
                    let mut cursor = declaration.walk();
                    declaration
                        .children_by_field_name("declarator", &mut cursor)
                        .filter_map(|d| d.child_by_field_name("name"))
                        .map(|n| file.text_of(n))
                        .collect()
                };
                Some(format!(
                    "static variable `{}` (not a constant: no final)",
                    names.join(", ")
                ))
            }
            "class_declaration" => Some(format!("static class `{}`", name_of(file, declaration))),
            _ => None,
        };
        if let Some(problem) = problem {
            findings.push(file.finding(declaration, problem));
        }
    }
    if findings.is_empty() {
        Verdict::pass("static is used only on main and constants", Vec::new())
    } else {
        Verdict::fail(
            format!("static used {} time(s) elsewhere", findings.len()),
            findings,
        )
    }
}

/// The `new TYPE(…)` expressions creating a `type` (`Scanner`, `java.util.Scanner`).
fn creations(program: &Program, type_name: &str) -> Vec<Finding> {
    program
        .all(&["object_creation_expression"])
        .into_iter()
        .filter(|(file, creation)| {
            creation.child_by_field_name("type").is_some_and(|t| {
                let text = file.text_of(t);
                text == type_name || text.ends_with(&format!(".{type_name}"))
            })
        })
        .map(|(file, creation)| file.finding(creation, format!("new {type_name}(…)")))
        .collect()
}

fn uses_class(program: &Program, type_name: &str, purpose: &str) -> Verdict {
    let found = creations(program, type_name);
    if found.is_empty() {
        Verdict::fail(
            format!("no `new {type_name}(…)`: {purpose} without the {type_name} class"),
            Vec::new(),
        )
    } else {
        Verdict::pass(format!("a {type_name} is created"), found)
    }
}

fn scanner(program: &Program) -> Verdict {
    uses_class(program, "Scanner", "input is read")
}

fn random(program: &Program) -> Verdict {
    let mut verdict = uses_class(program, "Random", "the board is generated");
    if !verdict.passed {
        // Where the randomness comes from instead.
        verdict.findings = program
            .all(&["method_invocation"])
            .into_iter()
            .filter(|(file, call)| {
                call.child_by_field_name("object")
                    .is_some_and(|o| file.text_of(o) == "Math")
                    && name_of(file, *call) == "random"
            })
            .map(|(file, call)| file.finding(call, "Math.random() instead of a Random object"))
            .collect();
    }
    verdict
}

fn tostring(program: &Program) -> Verdict {
    let found = classes(program, "CoinStrip");
    let Some((file, class)) = found.first() else {
        return Verdict::fail("there is no class CoinStrip", Vec::new());
    };
    let to_string = methods(*class).into_iter().find(|m| {
        name_of(file, *m) == "toString"
            && m.child_by_field_name("parameters")
                .is_some_and(|p| p.named_child_count() == 0)
    });
    match to_string {
        Some(method) => Verdict::pass(
            "CoinStrip has toString()",
            vec![file.finding(method, "CoinStrip.toString()")],
        ),
        None => Verdict::fail(
            "CoinStrip has no toString() method",
            vec![file.finding(*class, "class `CoinStrip`")],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::requirements::tests::program;

    const PLAY: &str = r#"import java.util.Scanner;
public class PlayGame {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        CoinStrip strip = new CoinStrip(in.nextInt());
        System.out.println(strip);
    }
}
"#;
    const STRIP: &str = r#"import java.util.Random;
public class CoinStrip {
    private static final int MAX_GAP = 6;
    private int[] coins;
    public CoinStrip(int n) { Random r = new java.util.Random(); coins = new int[n]; }
    public String toString() { return "_"; }
}
"#;
    const BAD_PLAY: &str = r#"public class PlayGame {
    static int turns;
    public static void main(String[] args) { play(); }
    static void play() { CoinStrip s = new CoinStrip(3); s.show(); }
}
"#;
    const BAD_STRIP: &str = r#"public class CoinStrip {
    int[] coins = new int[3];
    public CoinStrip(int n) { }
    void show() {
        System.out.print("_ ");
        System.out.println();
    }
}
"#;

    fn two(a: &str, b: &str) -> Program {
        let mut p = program("PlayGame.java", a);
        p.files.extend(program("CoinStrip.java", b).files);
        p
    }

    fn check(name: &str, p: &Program) -> Verdict {
        let r = REQUIREMENTS
            .iter()
            .find(|r| r.name == name)
            .expect("requirement");
        (r.check)(p)
    }

    #[test]
    fn a_program_that_follows_the_handout_passes_everything() {
        let good = two(PLAY, STRIP);
        for r in REQUIREMENTS {
            let v = (r.check)(&good);
            assert!(v.passed, "{}: {v:?}", r.name);
        }
    }

    #[test]
    fn each_violation_is_found_where_it_is() {
        let bad = two(BAD_PLAY, BAD_STRIP);
        let only_main = check("playgame-only-main", &bad);
        assert!(!only_main.passed);
        assert_eq!(only_main.findings[0].place(), "PlayGame.java:4");
        let output = check("output-in-playgame", &bad);
        assert!(!output.passed);
        let places: Vec<String> = output
            .findings
            .iter()
            .map(|f| format!("{} {}", f.place(), f.message))
            .collect();
        assert_eq!(
            places,
            [
                "CoinStrip.java:5 System.out.print in class `CoinStrip`",
                "CoinStrip.java:6 System.out.println in class `CoinStrip`"
            ]
        );
        let statics = check("static-main-and-constants", &bad);
        let messages: Vec<&str> = statics
            .findings
            .iter()
            .map(|f| f.message.as_str())
            .collect();
        assert_eq!(
            messages,
            [
                "static variable `turns` (not a constant: no final)",
                "static method `play`"
            ]
        );
        assert!(!check("scanner", &bad).passed);
        assert!(!check("random", &bad).passed);
        let math = program(
            "CoinStrip.java",
            "class CoinStrip {\n  int gap() {\n    return 1 + (int) (Math.random() * 6);\n  }\n}\n",
        );
        let random = check("random", &math);
        assert_eq!(random.findings[0].place(), "CoinStrip.java:3");
        assert!(!check("tostring", &bad).passed);
        assert!(check("two-classes", &bad).passed);
        let one = program(
            "Game.java",
            "public class Game { public static void main(String[] a) {} }",
        );
        assert_eq!(
            check("two-classes", &one).detail,
            "no class `CoinStrip` or `PlayGame`"
        );
    }
}
