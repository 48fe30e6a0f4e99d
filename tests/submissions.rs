//! Shapes of a submission through the real `grade` binary: archives (unpacked safely, graded
//! like their folder), build files, ambiguous entry points, missing toolchains.

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
    let output = grade().arg("doctor").output().expect("doctor");
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
