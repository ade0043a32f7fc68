//! What a newcomer installs and reads besides the program: shell
//! completions, the manual page, help for every argument with examples,
//! and a `rust-version` that the locked dependencies really build with.

use clap::CommandFactory;
use grundy::cli::Cli;
use std::path::Path;
use std::process::{Command, Stdio};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `grundy ARGS`: its status and standard output.
fn grundy(args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("grundy runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

fn subcommand_names() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect()
}

#[test]
fn completions_for_each_shell_know_every_subcommand() {
    let names = subcommand_names();
    assert!(names.iter().any(|n| n == "completions") && names.iter().any(|n| n == "man"));
    for shell in ["bash", "zsh", "fish"] {
        let (status, script) = grundy(&["completions", shell]);
        assert_eq!(status, Some(0), "completions {shell}");
        for name in &names {
            assert!(
                script.contains(name.as_str()),
                "the {shell} completions do not mention `{name}`"
            );
        }
        // Options of subcommands too, not only their names.
        assert!(script.contains("verify-decomposition"), "{shell}");
        // A .game file argument completes as a file name.
        if shell == "zsh" {
            assert!(script.contains("as one program:_files"), "{script}");
        }
    }
    let (status, _) = grundy(&["completions", "no-such-shell"]);
    assert_eq!(status, Some(2));
}

#[test]
fn the_manual_page_renders_with_every_subcommand() {
    let (status, page) = grundy(&["man"]);
    assert_eq!(status, Some(0));
    assert!(
        page.starts_with(".ie") || page.starts_with(".TH"),
        "not roff"
    );
    for name in subcommand_names() {
        assert!(
            page.contains(&format!(".TH grundy-{name} 1")),
            "no page for `grundy {name}`"
        );
    }
    // Rendered as `man` would, where groff is installed.
    let Ok(mut groff) = Command::new("groff")
        // -P-cbou: plain text, without overstriking for bold or underline.
        .args(["-man", "-Tutf8", "-ww", "-P-cbou"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        eprintln!("note: groff is not installed; the page was not rendered");
        return;
    };
    use std::io::Write;
    groff
        .stdin
        .take()
        .expect("piped")
        .write_all(page.as_bytes())
        .expect("groff reads the page");
    let rendered = groff.wait_with_output().expect("groff finishes");
    assert!(rendered.status.success());
    let text = String::from_utf8_lossy(&rendered.stdout);
    let warnings = String::from_utf8_lossy(&rendered.stderr);
    assert!(warnings.trim().is_empty(), "groff warns:\n{warnings}");
    for heading in ["NAME", "SYNOPSIS", "OPTIONS", "SUBCOMMANDS"] {
        assert!(text.contains(heading), "no {heading} in the rendered page");
    }
    assert!(
        text.contains("grundy value examples/nim.game"),
        "no examples"
    );
}

#[test]
fn every_argument_is_described_and_every_command_has_examples() {
    let mut missing = Vec::new();
    let mut top = Cli::command();
    top.build();
    for command in std::iter::once(&top).chain(top.get_subcommands()) {
        let name = command.get_name();
        for arg in command.get_arguments() {
            let id = arg.get_id().as_str();
            if matches!(id, "help" | "version") {
                continue;
            }
            let described = arg
                .get_help()
                .or(arg.get_long_help())
                .is_some_and(|h| !h.to_string().trim().is_empty());
            if !described {
                missing.push(format!("`{name}`: argument `{id}` has no help"));
            }
        }
        // `help` is clap's own.
        if name != "help" {
            let examples = command
                .get_after_help()
                .map(|h| h.to_string())
                .unwrap_or_default();
            if !examples.contains("Example") || !examples.contains("grundy ") {
                missing.push(format!("`{name}`: no examples after its help"));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// A version's numbers, to compare part by part (`1.88` and `1.88.0`
/// are the same).
fn version(text: &str) -> Vec<u32> {
    let mut parts: Vec<u32> = text.split('.').map(|p| p.parse().unwrap_or(0)).collect();
    while parts.last() == Some(&0) {
        parts.pop();
    }
    parts
}

#[test]
fn rust_version_is_no_lower_than_any_locked_dependency_needs() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let ours = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .map(|v| v.trim_matches('"').to_string())
        .expect("Cargo.toml states a rust-version");
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).expect("Cargo.lock");
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
        .expect("a cargo home");
    let Ok(registries) = std::fs::read_dir(cargo_home.join("registry/src")) else {
        eprintln!("note: no registry sources here; rust-version not compared");
        return;
    };
    let registries: Vec<_> = registries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    let mut too_new = Vec::new();
    let mut compared = 0;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        let Some(name) = line.strip_prefix("name = ") else {
            continue;
        };
        let Some(v) = lines.next().and_then(|l| l.strip_prefix("version = ")) else {
            continue;
        };
        let folder = format!("{}-{}", name.trim_matches('"'), v.trim_matches('"'));
        let Some(text) = registries
            .iter()
            .find_map(|r| std::fs::read_to_string(r.join(&folder).join("Cargo.toml")).ok())
        else {
            continue;
        };
        compared += 1;
        let needed = text
            .lines()
            .find_map(|l| l.strip_prefix("rust-version = "))
            .map(|v| v.trim_matches('"').to_string());
        if let Some(needed) = needed {
            if version(&needed) > version(&ours) {
                too_new.push(format!("{folder} needs Rust {needed}"));
            }
        }
    }
    assert!(compared > 0 || registries.is_empty());
    assert!(
        too_new.is_empty(),
        "Cargo.toml says rust-version {ours}, but\n{}",
        too_new.join("\n")
    );
}
