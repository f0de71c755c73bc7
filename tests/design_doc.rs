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
    // The contract stays within the size issue 78 set it.
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
