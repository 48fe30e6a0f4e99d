//! Shapes of a submission through the real `grade` binary: archives (unpacked safely, graded
//! like their folder), build files, ambiguous entry points, missing toolchains.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test that cannot run here says so on its output"
)]

mod support;

use std::io::Write;
use std::path::Path;

use support::*;

/// Copies the regular files of `from` into `to` (tests' own program folders: no links).
fn copy_folder(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from)
        .into_iter()
        .filter_map(Result::ok)
    {
        let relative = entry.path().strip_prefix(from).expect("inside");
        let target = to.join(relative);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Zips `folder` under the top folder `top/` (as "Compress" on a desktop does).
fn zip_folder(folder: &Path, top: &str, zip_path: &Path) {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(zip_path).expect("create zip"));
    let options = zip::write::SimpleFileOptions::default();
    zip.add_directory(format!("{top}/"), options).expect("dir");
    for entry in walkdir::WalkDir::new(folder)
        .into_iter()
        .filter_map(Result::ok)
    {
        let relative = entry.path().strip_prefix(folder).expect("inside");
        if entry.file_type().is_file() {
            zip.start_file(format!("{top}/{}", relative.display()), options)
                .expect("start");
            zip.write_all(&std::fs::read(entry.path()).expect("read"))
                .expect("write");
        }
    }
    // A desktop's metadata folder, which must be ignored.
    zip.start_file(format!("__MACOSX/{top}/._assignment3.py"), options)
        .expect("start");
    zip.write_all(b"\0\x05\x16\x07").expect("write");
    zip.finish().expect("finish");
}

#[test]
fn a_zipped_or_tarred_submission_grades_like_its_folder() {
    if !have("python3") {
        return;
    }
    let folder = program("collect/assignment3_folder");
    let (code, by_folder) = grade_json(&folder, "collect", &[]);
    assert_eq!(code, 0, "{:#?}", lost_points(&by_folder));
    assert_eq!(by_folder["score"], by_folder["max_score"]);

    let dir = tempfile::tempdir().expect("dir");
    let zip_path = dir.path().join("20231234.zip");
    zip_folder(&folder, "20231234", &zip_path);
    let (code, by_zip) = grade_json(&zip_path, "collect", &[]);
    assert_eq!(code, 0, "{:#?}", lost_points(&by_zip));
    assert_eq!(by_zip["score"], by_folder["score"]);

    let tar_path = dir.path().join("20231234.tar.gz");
    let status = std::process::Command::new("tar")
        .arg("-czf")
        .arg(&tar_path)
        .arg("-C")
        .arg(folder.parent().expect("parent"))
        .arg("assignment3_folder")
        .status()
        .expect("tar");
    assert!(status.success());
    let (code, by_tar) = grade_json(&tar_path, "collect", &[]);
    assert_eq!(code, 0, "{:#?}", lost_points(&by_tar));
    assert_eq!(by_tar["score"], by_folder["score"]);
}

#[test]
fn archives_with_paths_outside_or_links_are_refused_in_one_line() {
    let dir = tempfile::tempdir().expect("dir");
    let slip = dir.path().join("slip.zip");
    {
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&slip).expect("create"));
        let options = zip::write::SimpleFileOptions::default();
        zip.start_file("nim/main.py", options).expect("start");
        zip.write_all(b"print('hi')\n").expect("write");
        zip.start_file("../../escaped.py", options).expect("start");
        zip.write_all(b"print('out')\n").expect("write");
        zip.finish().expect("finish");
    }
    let (code, stdout, stderr) = grade_output(&slip, "nim", &[]);
    assert_ne!(code, 0);
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("the archive holds a path that leaves its folder (../../escaped.py); it was not unpacked"),
        "{stderr}"
    );
    assert!(!dir.path().join("escaped.py").exists());

    let link = dir.path().join("link.zip");
    {
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&link).expect("create"));
        let options = zip::write::SimpleFileOptions::default();
        zip.start_file("nim/main.py", options).expect("start");
        zip.write_all(b"print(open('cases').read())\n")
            .expect("write");
        zip.add_symlink("nim/cases", "/etc/passwd", options)
            .expect("link");
        zip.finish().expect("finish");
    }
    let (code, _, stderr) = grade_output(&link, "nim", &[]);
    assert_ne!(code, 0);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("the archive holds a link (nim/cases)"),
        "{stderr}"
    );
}

#[test]
fn an_ambiguous_entry_point_names_the_candidates_and_main_settles_it() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    copy_folder(&program("nim/split_python"), dir.path());
    std::fs::rename(dir.path().join("main.py"), dir.path().join("game.py")).expect("rename");
    std::fs::write(dir.path().join("scratch.py"), "print('trying things')\n").expect("write");
    let (code, stdout, stderr) = grade_output(dir.path(), "nim", &[]);
    assert_ne!(code, 0);
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(
            "it holds several Python files that could start the program \
             (game.py, nim_helpers.py, scratch.py); choose one with --main FILE"
        ),
        "{stderr}"
    );
    let (code, report) = grade_json(dir.path(), "nim", &["--main", "game.py"]);
    assert_eq!(code, 0, "{:#?}", lost_points(&report));
    assert_eq!(report["score"], report["max_score"]);
}

#[test]
fn makefiles_and_build_scripts_are_honoured() {
    if !have("g++") || !have("make") {
        return;
    }
    let make_dir = tempfile::tempdir().expect("dir");
    copy_folder(&program("nim/split_cpp"), make_dir.path());
    // The Makefile names its program `nim` and leaves the test main out.
    std::fs::write(
        make_dir.path().join("Makefile"),
        "nim: main.o nim_helpers.o\n\t$(CXX) -o nim main.o nim_helpers.o\n\n\
         %.o: %.cpp nim_helpers.h\n\t$(CXX) -O2 -c $<\n",
    )
    .expect("write");
    let (code, report) = grade_json(make_dir.path(), "nim", &[]);
    assert_eq!(code, 0, "{:#?}", lost_points(&report));
    assert_eq!(report["score"], report["max_score"]);

    let script_dir = tempfile::tempdir().expect("dir");
    copy_folder(&program("nim/split_cpp"), script_dir.path());
    std::fs::write(
        script_dir.path().join("build.sh"),
        "#!/bin/sh\nset -e\ng++ -O2 -o game main.cpp nim_helpers.cpp\n",
    )
    .expect("write");
    let (code, report) = grade_json(script_dir.path(), "nim", &[]);
    assert_eq!(code, 0, "{:#?}", lost_points(&report));

    if have("cmake") {
        let cmake_dir = tempfile::tempdir().expect("dir");
        copy_folder(&program("nim/split_cpp"), cmake_dir.path());
        std::fs::write(
            cmake_dir.path().join("CMakeLists.txt"),
            "cmake_minimum_required(VERSION 3.10)\nproject(nim CXX)\n\
             add_executable(nim main.cpp nim_helpers.cpp)\n",
        )
        .expect("write");
        let (code, report) = grade_json(cmake_dir.path(), "nim", &[]);
        assert_eq!(code, 0, "{:#?}", lost_points(&report));
        assert_eq!(report["score"], report["max_score"]);
    }

    // A build that fails is a build failure with the tool's messages, not a crash.
    std::fs::write(
        make_dir.path().join("Makefile"),
        "nim:\n\t@echo 'make: the build is broken' >&2; exit 2\n",
    )
    .expect("write");
    let (code, text) = grade_text(make_dir.path(), "nim", &[]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("the build is broken"), "{text}");
}

#[test]
fn a_missing_toolchain_is_one_line_naming_what_to_install() {
    // Kotlin and C# toolchains are not installed by CI: their absence is the message.
    for (file, source, tool, message) in [
        (
            "Nim.kt",
            "fun main() { println(\"Nim\") }\n",
            "kotlinc",
            "Kotlin submissions need `kotlinc`; install kotlin (kotlinc) and a JDK",
        ),
        (
            "Nim.cs",
            "class Nim { static void Main() {} }\n",
            "dotnet",
            "C# submissions need `dotnet`; install the .NET SDK (dotnet)",
        ),
    ] {
        let installed = ["/usr/bin", "/usr/local/bin"]
            .iter()
            .any(|d| Path::new(d).join(tool).exists())
            || grade::submission::find_tool(tool).is_some();
        if installed {
            eprintln!("skipped: {tool} is installed, so its absence cannot be shown");
            continue;
        }
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join(file);
        std::fs::write(&path, source).expect("write");
        let (code, stdout, stderr) = grade_output(&path, "nim", &[]);
        assert_ne!(code, 0);
        assert!(stdout.is_empty(), "{stdout}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
    }
}

#[test]
fn doctor_lists_the_toolchains_it_found() {
    let output = grade().arg("doctor").logged_output().expect("doctor");
    let text = String::from_utf8_lossy(&output.stdout);
    for language in [
        "C++",
        "Python",
        "JavaScript",
        "Go",
        "Rust",
        "Kotlin",
        "C#",
        "Ruby",
        "Perl",
    ] {
        let line = text
            .lines()
            .find(|l| l.split("  ").next() == Some(language))
            .unwrap_or_else(|| panic!("no {language} line:\n{text}"));
        assert!(line.contains(" yes ") || line.contains(" no  "), "{line}");
    }
    if have("g++") {
        assert!(
            text.lines()
                .any(|l| l.starts_with("C++ ") && l.contains("g++")),
            "{text}"
        );
    }
}

/// An executable file holding `bytes`, named `name` in `dir`.
fn executable(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

#[test]
fn an_executable_that_is_not_a_program_is_refused_in_one_line_naming_what_it_looks_like() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Bytes no format starts with (fixed, so the test is the same every run), then the
    // first bytes of the formats a student might hand in by mistake.
    let random: Vec<u8> = (0u32..4096)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 | 0x80)
        .collect();
    let java_class = [0xca, 0xfe, 0xba, 0xbe, 0x00, 0x00, 0x00, 0x41, 0x00, 0x1d];
    let universal = [0xca, 0xfe, 0xba, 0xbe, 0x00, 0x00, 0x00, 0x02, 0x01, 0x00];
    let cases: [(&str, &[u8], &str); 7] = [
        ("random", &random, "random bytes"),
        (
            "macos",
            &[0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1],
            "a macOS executable (Mach-O)",
        ),
        ("fat", &universal, "a macOS universal executable (Mach-O)"),
        (
            "windows.exe",
            b"MZ\x90\x00\x03\x00\x00\x00",
            "a Windows executable (MZ/PE)",
        ),
        ("Nim.class", &java_class, "a compiled Java class file"),
        (
            "nim.jar",
            b"PK\x03\x04\x14\x00\x08\x00",
            "a zip archive or a Java .jar",
        ),
        (
            "nim",
            b"print('no #! line')\n",
            "a text file without a #! line",
        ),
    ];
    for (name, bytes, looks_like) in cases {
        let path = executable(dir.path(), name, bytes);
        let output = grade()
            .arg(&path)
            .args(["-a", "nim"])
            .logged_output()
            .expect("grade runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{name}: {stderr}");
        assert!(output.stdout.is_empty(), "{name}: no report");
        assert_eq!(stderr.lines().count(), 1, "{name}: one line: {stderr}");
        assert!(
            stderr.contains(&format!("not a program: it looks like {looks_like}")),
            "{name}: {stderr}"
        );
    }
    // In a folder, the file is named.
    let folder = dir.path().join("upload");
    std::fs::create_dir(&folder).expect("mkdir");
    executable(&folder, "run", &random);
    let output = grade()
        .arg(&folder)
        .args(["-a", "nim"])
        .logged_output()
        .expect("grade runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("run not a program: it looks like random bytes"),
        "{stderr}"
    );
}

#[test]
fn a_script_with_a_shebang_or_a_known_extension_still_runs() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    // A .py without #! is Python by its extension; the same code with #! runs as itself.
    let source = std::fs::read(program("m/correct_plain.py")).expect("read");
    let plain = executable(dir.path(), "m.py", &source);
    let mut with_shebang = b"#!/usr/bin/env python3\n".to_vec();
    with_shebang.extend_from_slice(&source);
    let script = executable(dir.path(), "m_game", &with_shebang);
    for path in [plain, script] {
        let (code, report) = grade_json(&path, "m", &["--case", "used-number"]);
        assert_eq!(code, 0, "{}: {report:#}", path.display());
    }
}
