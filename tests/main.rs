//! The integration tests as one test binary: each file of `tests/` is a module here, named as
//! the file (its tests are `arena::...`, `perft::...`), so the suite is linked once rather than
//! once per file. `common` and `gui_common` are the shared helpers; `counting` is the counting
//! allocator that the allocation tests read. One file's tests: `cargo test --profile
//! release-tests --test integration -- arena::` (docs/development.md).

mod common;
#[cfg(feature = "gui")]
mod gui_common;

/// A global allocator that counts the allocations of each thread, for the tests that the hot
/// path allocates nothing (`no_alloc`, `mutatis_alloc`). The counts are per thread, so tests
/// running side by side do not disturb each other.
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    thread_local! {
        /// The allocations this thread made so far.
        pub static ALLOCS: Cell<u64> = const { Cell::new(0) };
    }

    /// The system allocator, counting.
    struct Counting;

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            ALLOCS.with(|c| c.set(c.get() + 1));
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;
}

// The test files, one module each.
mod arena;
mod arena_books;
mod arena_faults;
mod chess960;
mod chess_rules;
mod ci_scripts;
mod claimable_draws;
mod datagen_cli;
mod design_doc;
mod diagrams;
mod eval_file;
mod fuzz_protocol;
mod gui;
#[cfg(feature = "gui")]
mod gui_api;
#[cfg(feature = "gui")]
mod gui_browser;
#[cfg(feature = "gui")]
mod gui_engines;
#[cfg(feature = "gui")]
mod gui_fuzz;
#[cfg(feature = "gui")]
mod gui_kill;
#[cfg(feature = "gui")]
mod gui_load;
#[cfg(feature = "gui")]
mod gui_review;
#[cfg(feature = "gui")]
mod gui_seats;
#[cfg(feature = "gui")]
mod gui_timeouts;
mod mitosis;
mod mulligan_stew;
mod muster;
mod mutatis_alloc;
mod mutatis_game;
mod mutatis_pieces;
mod mutatis_properties;
mod mutatis_rules;
mod mystic;
mod net_inputs;
mod no_alloc;
mod notation;
mod outcomes;
mod perft;
mod piece_descriptions;
mod protocol;
mod protocol_cli;
mod protocol_reliability;
mod search;
mod selfplay;
mod skill;
mod staged_generation;
mod tunables;
mod wdl;

/// Every test file of `tests/` is a module above: with `autotests = false`, a file left out
/// would silently not run.
#[test]
fn every_test_file_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            let name = path.file_stem().unwrap().to_str().unwrap().to_string();
            if name != "main" && !main.lines().any(|l| l == format!("mod {name};")) {
                missing.push(name);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "test files not in tests/main.rs: {missing:?}"
    );
}
