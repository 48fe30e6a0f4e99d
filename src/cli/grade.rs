//! The default command, `grade SUBMISSION... --assignment NAME`: one submission graded and
//! its report written, or a whole class handed to `class/`.

use std::path::PathBuf;

use crate::assignments::Assignment;
use crate::cases::{self, CaseTree};
use crate::class::ClassOptions;
use crate::grade::{grade, sandbox_layers, GradeOptions};
use crate::report;
use crate::run;

/// Which variant to grade against, when not the course's (docs/variants.md).
#[derive(Debug, Default, Clone)]
pub struct VariantChoice {
    /// The student name a per-student variant is picked for (default: the submission's).
    pub student: Option<String>,
    /// An explicit variant (`matches=25`), over any pick.
    pub variant: Option<String>,
}

impl From<&super::args::GradeOptionArgs> for VariantChoice {
    fn from(args: &super::args::GradeOptionArgs) -> VariantChoice {
        VariantChoice {
            student: args.student.clone(),
            variant: args.variant.clone(),
        }
    }
}

/// The cases one student is graded on: the variant asked for, else the student's pick
/// (`variants:`), else the course's.
pub fn cases_for(
    tree: &CaseTree,
    set: &cases::CaseSet,
    student: &str,
    choice: &VariantChoice,
    course_seed: Option<u64>,
) -> anyhow::Result<cases::CaseSet> {
    Ok(match &choice.variant {
        Some(text) => {
            let variant = crate::variants::Variant::parse(set.assignment, text)
                .map_err(|e| anyhow::anyhow!("--variant {text}: {e}"))?;
            cases::with_variant(tree, set, &variant, "asked")?
        }
        None => cases::for_student(tree, set, student, course_seed)?,
    })
}

/// Grades each submission and writes the reports; returns the process exit status
/// (0 every case of every submission earned full marks, 1 some lost points, 2 an error).
pub fn grade_command(
    submissions: &[PathBuf],
    assignment: Assignment,
    options: &GradeOptions,
    class: &ClassOptions,
    choice: &VariantChoice,
) -> anyhow::Result<u8> {
    if options.require_sandbox {
        let missing: Vec<String> = sandbox_layers()
            .into_iter()
            .filter(|l| l.required && !l.active)
            .map(|l| format!("{}: {}", l.name, l.detail))
            .collect();
        if !missing.is_empty() {
            anyhow::bail!(
                "--require-sandbox: required sandbox layers are off here ({}); see grade doctor",
                missing.join("; ")
            );
        }
    }
    let tree = CaseTree::open(options.cases.as_deref())?;
    if let Some(root) = tree.root() {
        // An instructor's cases (hidden ones, and their reference transcripts) stay unreadable
        // to submissions even when they live under a system directory such as /opt.
        run::sandbox::protect(root);
    }
    let loading = run::profile::span("grading: cases loaded (once per process)");
    let set = cases::load(&tree, assignment)?;
    drop(loading);
    // An instructor's reference program is built now: one error for the run, not one per student.
    assignment
        .kind()
        .prepare()
        .map_err(|e| anyhow::anyhow!(e))?;
    // An asked-for variant is the whole run's, for one student or a class.
    let set = match &choice.variant {
        Some(_) => cases_for(&tree, &set, "", choice, options.course_seed)?,
        None => set,
    };
    // A class handed in as one folder is graded as the class it is, never as one student's file.
    let class_folders = match submissions {
        [folder] => crate::submission::class_folder::student_folders(folder),
        _ => None,
    };
    if let (Some(folders), [folder]) = (&class_folders, submissions) {
        eprintln!(
            "grade: {} holds no program of its own but {} student folders: grading each of \
             them (as `grade {}/*/ -a {assignment}` does)",
            folder.display(),
            folders.len(),
            folder.display().to_string().trim_end_matches('/')
        );
    }
    let submissions = class_folders.as_deref().unwrap_or(submissions);
    if choice.student.is_some() && submissions.len() > 1 {
        anyhow::bail!("--student names one student; grade their submission alone");
    }
    if let [submission] = submissions {
        if class.output_dir.is_none() && class.shard.is_none() {
            let student = choice.student.clone().unwrap_or_else(|| {
                crate::class::student_names(std::slice::from_ref(submission)).remove(0)
            });
            let set = cases_for(&tree, &set, &student, choice, options.course_seed)?;
            let result = match grade(submission, &set, options) {
                Ok(result) => result,
                // Not the student's doing: no score at all, and the reason (exit status 2).
                Err(error) => match crate::not_gradable::not_gradable(&error) {
                    Some(not_gradable) => anyhow::bail!("{}: {not_gradable}", submission.display()),
                    None => return Err(error),
                },
            };
            report::audience::write_for(
                &result,
                options.format,
                options.output.as_deref(),
                options.audience,
            )?;
            report::github::publish(
                &result,
                report::github::Audience::Student,
                options.output.is_none() && options.format == report::Format::Text,
            )?;
            return Ok(if result.full_marks() { 0 } else { 1 });
        }
    }
    let digest = tree
        .paths()
        .filter(|p| {
            p.starts_with(&format!("cases/{assignment}/"))
                || p.starts_with(&format!("reference/{assignment}/"))
        })
        .fold(0u64, |hash, p| {
            crate::keys::stable_hash(
                tree.file(p).unwrap_or_default(),
                crate::keys::stable_hash(p.as_bytes(), hash),
            )
        });
    let display = ClassDisplay::default();
    crate::class::grade_class(
        submissions,
        &set,
        digest,
        options,
        class,
        &|student| cases_for(&tree, &set, student, choice, options.course_seed),
        &|event| display.show(event),
    )
}

/// How a class run is shown: a progress bar on a terminal, a line per student otherwise;
/// notes on standard error, the summary on standard output. What students control is
/// fenced under GitHub Actions.
#[derive(Default)]
struct ClassDisplay {
    /// The bar, on a terminal, once the run has started.
    bar: std::cell::RefCell<Option<indicatif::ProgressBar>>,
}

impl ClassDisplay {
    /// Shows one event of the run.
    fn show(&self, event: crate::class::ClassEvent) {
        use crate::class::ClassEvent;
        use crate::report::github::fence;
        use std::io::IsTerminal;
        match event {
            ClassEvent::Started { total } if std::io::stderr().is_terminal() => {
                let bar = indicatif::ProgressBar::new(total as u64);
                if let Ok(style) = indicatif::ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} graded, {msg} [{elapsed} elapsed, ~{eta} left]",
                ) {
                    bar.set_style(style);
                }
                *self.bar.borrow_mut() = Some(bar);
            }
            ClassEvent::Started { .. } => {}
            ClassEvent::Graded {
                position,
                total,
                student,
                outcome,
                failures,
            } => match self.bar.borrow().as_ref() {
                Some(bar) => {
                    bar.set_position(position as u64);
                    bar.set_message(format!("{failures} lost points or failed"));
                }
                None => eprint!(
                    "{}",
                    fence(&format!("[{position}/{total}] {student}: {outcome}\n"))
                ),
            },
            ClassEvent::Note(line) => match self.bar.borrow().as_ref() {
                Some(bar) => bar.suspend(|| eprint!("{}", fence(&format!("{line}\n")))),
                None => eprint!("{}", fence(&format!("{line}\n"))),
            },
            ClassEvent::ReportWritten => println!(),
            ClassEvent::Finished => {
                if let Some(bar) = self.bar.borrow_mut().take() {
                    bar.finish_and_clear();
                }
            }
            ClassEvent::Summary(summary) => print!("{}", fence(summary)),
        }
    }
}
