//! `menagerie datagen --format bin` and `menagerie datagen merge` from the command line, as the
//! Ray driver (scripts/ray_datagen.py) runs them: two shards, merged, read back; bad inputs get
//! one clear error and leave the output alone.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use menagerie::tools::datafile::read_file;

fn menagerie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("menagerie-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn shards_run_and_merge_from_the_command_line() {
    let d = dir("datagen-cli");
    let (a, b, m) = (d.join("a.bin"), d.join("b.bin"), d.join("m.bin"));
    for (k, out) in [("1/2", &a), ("2/2", &b)] {
        let o = menagerie(&[
            "datagen",
            "--variant",
            "mystic",
            "--games",
            "4",
            "--nodes",
            "200",
            "--format",
            "bin",
            "--shard",
            k,
            "--seed",
            "3",
            "--out",
            s(out),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let line = String::from_utf8_lossy(&o.stdout);
        assert!(line.contains("duplicates left out"), "{line}");
    }
    let o = menagerie(&["datagen", "merge", s(&a), s(&b), "--out", s(&m)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let line = String::from_utf8_lossy(&o.stdout).to_string();
    let (variant, merged) = read_file(&m).unwrap();
    assert_eq!(variant, "mystic");
    let (_, sa) = read_file(&a).unwrap();
    let (_, sb) = read_file(&b).unwrap();
    assert!(!merged.is_empty() && merged.len() <= sa.len() + sb.len());
    assert!(
        line.contains(&format!("mystic {} positions", merged.len())),
        "{line}"
    );

    // A text file among the inputs: one error naming it, exit status 1, the output untouched.
    let t = d.join("t.txt");
    std::fs::write(&t, "8/8 | 1 | 0\n").unwrap();
    let before = std::fs::read(&m).unwrap();
    let o = menagerie(&["datagen", "merge", s(&a), s(&t), "--out", s(&m)]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("t.txt") && err.contains("MDG1"), "{err}");
    assert_eq!(std::fs::read(&m).unwrap(), before);
    // --eval-file: a file that is not a network is refused before any game, nothing written.
    let x = d.join("x.bin");
    let o = menagerie(&[
        "datagen",
        "--variant",
        "mystic",
        "--games",
        "2",
        "--nodes",
        "100",
        "--out",
        s(&x),
        "--eval-file",
        s(&t),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--eval-file") && err.contains("MNV1"), "{err}");
    assert!(!x.exists());
    // A run without its required arguments is refused by the parser.
    let o = menagerie(&["datagen", "--variant", "chess", "--games", "2"]);
    assert!(!o.status.success());
    std::fs::remove_dir_all(&d).unwrap();
}
