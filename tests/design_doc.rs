//! docs/design.md section 2 kept true: the traits a variant implements, their item counts and
//! their items, read from the source and compared with what the document says.

use std::path::Path;

/// The file at `rel` (from the crate's root) as text.
fn read(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The names of the items (`fn`, `const`, `type`) declared in the body of `pub trait name` in
/// `source`: the lines indented by one level between the trait's head and its closing brace.
fn trait_items(source: &str, name: &str) -> Vec<String> {
    let head = format!("pub trait {name}");
    let start = source
        .lines()
        .position(|l| {
            l.starts_with(&head) && !l[head.len()..].starts_with(|c: char| c.is_alphanumeric())
        })
        .unwrap_or_else(|| panic!("no `{head}`"));
    if source
        .lines()
        .nth(start)
        .is_some_and(|l| l.trim_end().ends_with("{}"))
    {
        return Vec::new();
    }
    let mut items = Vec::new();
    for line in source.lines().skip(start + 1) {
        if line == "}" {
            return items;
        }
        let Some(rest) = line.strip_prefix("    ") else {
            continue;
        };
        for keyword in ["fn ", "const ", "type "] {
            if let Some(decl) = rest.strip_prefix(keyword) {
                let ident: String = decl
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                items.push(ident);
            }
        }
    }
    panic!("`{head}` has no closing brace");
}

/// Section 2 of docs/design.md, from its heading to the next, its white space runs made single
/// spaces (so that a figure and its words may sit on two lines).
fn contract_section() -> String {
    let doc = read("docs/design.md");
    let start = doc.find("\n## 2. ").expect("design.md has a section 2");
    let end = doc[start + 1..]
        .find("\n## ")
        .map_or(doc.len(), |e| start + 1 + e);
    doc[start..end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The figure the document gives for `name`, written "N (`name`)".
fn stated_count(section: &str, name: &str) -> usize {
    let mark = format!(" (`{name}`)");
    let at = section
        .find(&mark)
        .unwrap_or_else(|| panic!("design.md gives no count for `{name}`"));
    let digits: String = section[..at]
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no figure before `{name}`"))
}

/// The contract's traits, where each is declared.
const TRAITS: [(&str, &str); 6] = [
    ("GameMove", "src/variants/contract.rs"),
    ("Rules", "src/variants/contract.rs"),
    ("Notation", "src/variants/contract.rs"),
    ("Evaluation", "src/variants/contract.rs"),
    ("StagedGeneration", "src/variants/contract.rs"),
    ("Game", "src/variants/contract.rs"),
];

/// The traits beside the contract that `Game` requires.
const BESIDE: [(&str, &str); 2] = [
    ("PieceMoves", "src/variants/diagram.rs"),
    ("NetInputs", "src/variants/network.rs"),
];

/// Each trait's item count in design.md is the number of items its source declares, and the
/// totals it gives ("N in all", "a variant sees M") are their sums. A trait that gains or loses
/// an item fails here until the document says so.
#[test]
fn design_md_counts_the_contract_items() {
    let section = contract_section();
    let mut total = 0;
    for (name, file) in TRAITS {
        let n = trait_items(&read(file), name).len();
        assert_eq!(
            stated_count(&section, name),
            n,
            "items of `{name}` ({file})"
        );
        total += n;
    }
    assert!(
        section.contains(&format!("{total} in all")),
        "design.md should say `{total} in all`"
    );
    let mut seen = total;
    for (name, file) in BESIDE {
        let n = trait_items(&read(file), name).len();
        let mark = format!("`{name}` ({n}");
        assert!(
            section.contains(&mark),
            "design.md should count {n} items of `{name}`"
        );
        seen += n;
    }
    assert!(
        section.contains(&format!("a variant sees {seen}")),
        "design.md should say a variant sees {seen}"
    );
    // The contract stays within 45 items.
    assert!(total <= 45, "{total} items in contract.rs");
}

/// Every item of every trait is named in section 2 (in backticks, as `name` or `name(...)`),
/// so the tables list what the code has.
#[test]
fn design_md_names_every_contract_item() {
    let section = contract_section();
    for (name, file) in TRAITS.iter().chain(BESIDE.iter()) {
        for item in trait_items(&read(file), name) {
            let named = section.match_indices(&format!("`{item}")).any(|(at, m)| {
                let after = section[at + m.len()..].chars().next();
                !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            assert!(
                named,
                "design.md section 2 does not name `{item}` of `{name}` ({file})"
            );
        }
    }
}

/// `Game`'s head in the document's sketch is the code's: the same supertraits.
#[test]
fn design_md_shows_games_supertraits() {
    let source = read("src/variants/contract.rs");
    let at = source.find("pub trait Game:").expect("pub trait Game");
    // The supertraits, each by its last path segment.
    let head = source[at + "pub trait Game:".len()..]
        .split('{')
        .next()
        .unwrap()
        .split('+')
        .map(|t| t.trim().rsplit("::").next().unwrap())
        .collect::<Vec<_>>()
        .join(" + ");
    let section = contract_section();
    assert!(
        section.contains(&format!("pub trait Game: {head} {{")),
        "design.md's sketch should read `pub trait Game: {head} {{`"
    );
}

/// The counter finds what it should: a trait of three items, one of them generic, with doc
/// comments, attributes, default bodies and a nested block.
#[test]
fn trait_items_reads_a_trait_body() {
    let source = "pub trait Other {}\npub trait T: Clone {\n    /// Doc.\n    type A<X: Copy>: Sized;\n    #[inline]\n    fn b(&self) -> u32 {\n        let c = 1;\n        c\n    }\n    const C: u8 = 2;\n}\n";
    assert_eq!(trait_items(source, "T"), ["A", "b", "C"]);
    assert!(trait_items(source, "Other").is_empty());
    assert_eq!(stated_count("has 2 (`A`) and 13 (`B`) items", "B"), 13);
}

/// `scripts/draw_layers.py` run on `root` with `args`; its output.
fn draw_layers(root: &Path, args: &[&str]) -> std::process::Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/draw_layers.py");
    std::process::Command::new("python3")
        .arg(script)
        .arg("--root")
        .arg(root)
        .args(args)
        .output()
        .expect("python3 runs scripts/draw_layers.py")
}

/// The rooms of `--text` output and what each uses: `floor N: room (L lines) uses a, b`.
fn rooms_used(text: &str) -> std::collections::BTreeMap<String, Vec<String>> {
    text.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("floor ")?;
            let (_, rest) = rest.split_once(": ")?;
            let (room, rest) = rest.split_once(" (")?;
            let used = rest.split_once(" uses ")?.1;
            let used = if used == "nothing" {
                Vec::new()
            } else {
                used.split(", ").map(str::to_string).collect()
            };
            Some((room.to_string(), used))
        })
        .collect()
}

/// docs/design.md section 1 holds in the code's imports, as the layers script reads them: no
/// cycle between rooms, `core` on nothing, `variants` on `core` only, the search and perft on
/// those two, the protocol on the engine's layers, nothing in the engine on the tools, the
/// client or the GUI, and the GUI on no rules code: only the client and the tools.
#[test]
fn design_md_layers_hold_in_the_imports() {
    let out = draw_layers(Path::new(env!("CARGO_MANIFEST_DIR")), &["--text"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "draw_layers.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rooms = rooms_used(&text);
    let allowed: [(&str, &[&str]); 8] = [
        ("core", &[]),
        ("variants", &["core"]),
        ("search", &["core", "variants"]),
        ("perft", &["core", "variants"]),
        ("bench", &["core", "variants", "search", "perft"]),
        (
            "protocol",
            &["core", "variants", "search", "perft", "bench"],
        ),
        ("client", &["core"]),
        ("gui", &["core", "client", "tools"]),
    ];
    for (room, may) in allowed {
        let used = rooms
            .get(room)
            .unwrap_or_else(|| panic!("no room `{room}` in:\n{text}"));
        for u in used {
            assert!(
                may.contains(&u.as_str()),
                "`{room}` uses `{u}`, which design.md section 1 puts above it or beside it"
            );
        }
    }
    for tool in ["tools", "tuning", "benches", "cli"] {
        assert!(rooms.contains_key(tool), "no room `{tool}` in:\n{text}");
    }
}

/// The layers script reads grouped and nested `use` trees, leaves comments, strings and unit
/// tests out, and refuses two rooms that import each other, naming them.
#[test]
fn draw_layers_reads_imports_and_refuses_a_cycle() {
    let root =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("draw-layers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("src/top")).unwrap();
    let write = |rel: &str, text: &str| std::fs::write(root.join(rel), text).unwrap();
    write("src/lib.rs", "pub mod base;\npub mod mid;\npub mod top;\n");
    write(
        "src/base.rs",
        "// use crate::top::X;\nconst S: &str = \"crate::mid::Y\";\n#[cfg(test)]\nmod tests { use crate::top::Z; }\n",
    );
    write("src/mid.rs", "use crate::{base::A, self};\n");
    write(
        "src/top/mod.rs",
        "pub mod leaf;\nuse crate::{mid::{B, C}, base};\n",
    );
    write("src/top/leaf.rs", "fn f() -> crate::base::A { todo!() }\n");
    let out = draw_layers(&root, &["--text"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let rooms = rooms_used(&text);
    assert_eq!(rooms["base"], Vec::<String>::new(), "{text}");
    assert_eq!(rooms["mid"], ["base"], "{text}");
    assert_eq!(rooms["top"], ["base", "mid"], "{text}");
    assert!(text.contains("floor 2: top"), "{text}");

    write("src/base.rs", "use crate::top::leaf;\n");
    let out = draw_layers(&root, &["--text"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("rooms in a cycle: base mid top"), "{err}");
    std::fs::remove_dir_all(&root).unwrap();
}

/// The registry's variants as (enum name, module, type, protocol name), read from the
/// `variant_registry!` lines of src/variants/mod.rs and the protocol names of the docs' rules.
fn registry() -> Vec<(String, String, String)> {
    read("src/variants/mod.rs")
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let (name, rest) = l.split_once(" => $crate::variants::")?;
            let path = rest.split([',', ';']).next()?;
            let (module, ty) = path.split_once("::")?;
            Some((name.to_string(), module.to_string(), ty.to_string()))
        })
        .collect()
}

/// Whether `code` names the variant: its module path, its type, its enum name or its protocol
/// name in quotes (its module's name without underscores).
fn names_variant(code: &str, (name, module, ty): &(String, String, String)) -> bool {
    let word = |w: &str| {
        code.match_indices(w).any(|(at, _)| {
            let before = code[..at].chars().next_back();
            let after = code[at + w.len()..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    };
    code.contains(&format!("{module}::"))
        || word(ty)
        || word(name)
        || code.contains(&format!("\"{}\"", module.replace('_', "")))
}

/// A file's text without its comment lines and end-of-line comments (`//` in Rust, `#` in
/// shell and Python), which may name variants freely.
fn without_comments(path: &Path, text: &str) -> String {
    let rust = path.extension().is_some_and(|e| e == "rs");
    text.lines()
        .map(|l| {
            if rust {
                l.find(" //").map_or(l, |at| &l[..at])
            } else {
                l.find(" #").map_or(l, |at| &l[..at])
            }
        })
        .filter(|l| {
            let t = l.trim_start();
            !(if rust {
                t.starts_with("//")
            } else {
                t.starts_with('#')
            })
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every file of `dir` (recursively) whose name ends in one of `exts`.
fn files_under(dir: &Path, exts: &[&str], out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, exts, out);
        } else if p.extension().is_some_and(|x| exts.iter().any(|w| x == *w)) {
            out.push(p);
        }
    }
}

/// docs/design.md section 5's list of the files a new variant touches is the code's: every file
/// outside a variant's own folder whose code names every registered variant (a hand-kept list
/// of them, where a seventh would need a line) is named in the section, and every file the
/// section names exists.
#[test]
fn design_md_lists_every_file_that_lists_the_variants() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let variants = registry();
    assert!(variants.len() >= 6, "registry lines: {variants:?}");
    let doc = read("docs/design.md");
    let start = doc.find("\n## 5. ").expect("design.md has a section 5");
    let end = doc[start + 1..]
        .find("\n## ")
        .map_or(doc.len(), |e| start + 1 + e);
    let section = &doc[start..end];
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches", "tuning/src", "scripts"] {
        files_under(&root.join(dir), &["rs", "py", "sh"], &mut files);
    }
    files.sort();
    let own: Vec<String> = variants
        .iter()
        .map(|(_, m, _)| format!("src/variants/{m}/"))
        .collect();
    let mut listing = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if own.iter().any(|o| rel.starts_with(o.as_str())) {
            continue;
        }
        let code = without_comments(path, &std::fs::read_to_string(path).unwrap());
        if variants.iter().all(|v| names_variant(&code, v)) {
            listing.push(rel);
        }
    }
    assert!(
        listing.contains(&"src/variants/mod.rs".to_string()),
        "the registry itself should be found: {listing:?}"
    );
    let unlisted: Vec<&String> = listing
        .iter()
        .filter(|f| !section.contains(&format!("`{f}`")))
        .collect();
    assert!(
        unlisted.is_empty(),
        "these files name every variant but design.md section 5 does not list them: {unlisted:?}"
    );
    for name in section.split('`').skip(1).step_by(2) {
        let is_path = (name.starts_with("src/")
            || name.starts_with("tests/")
            || name.starts_with("scripts/")
            || name.starts_with("tuning/"))
            && !name.contains('<')
            && !name.contains(' ');
        if is_path {
            assert!(
                root.join(name).exists(),
                "design.md section 5 names `{name}`, which is gone"
            );
        }
    }
}
