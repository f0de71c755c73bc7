//! The subcommands of the `menagerie` binary: each module holds one subcommand's arguments
//! (clap) and turns them into calls of the library. The engine's own commands (`perft`,
//! `bench`, `setup`, `replay`) are in [`engine`]; the tools around it in [`matches`],
//! [`book`], [`datagen`] and [`gui`].

use std::process::ExitCode;

use menagerie::variants::Variant;

pub mod book;
pub mod datagen;
pub mod engine;
#[cfg(feature = "gui")]
pub mod gui;
pub mod matches;

/// Reads a variant name (`--variant`): any name [`Variant::from_name`] knows.
///
/// Errors: an unknown name, with the list of known ones.
pub fn parse_variant(name: &str) -> Result<Variant, String> {
    Variant::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        format!("unknown variant '{name}' (known: {})", known.join(", "))
    })
}

/// Prints `result` (stdout) or its error (stderr, after `error: `) and gives the exit code.
pub fn finish(result: Result<String, String>) -> ExitCode {
    match result {
        Ok(text) => {
            print_out(&text);
            ExitCode::SUCCESS
        }
        Err(message) => {
            say(&format!("error: {message}"));
            ExitCode::FAILURE
        }
    }
}

/// A line on stderr; a closed stderr is ignored (a match goes on and writes its files).
pub fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Text on stderr without a newline (a live status line); errors ignored.
pub fn say_part(text: &str) {
    use std::io::Write;
    let mut err = std::io::stderr();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

/// Text on stdout; a closed stdout (a reader that went away) is ignored, so a match still
/// writes its result file and exits with its own status.
pub fn print_out(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}
