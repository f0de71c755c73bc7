//! `menagerie-tuning`: Texel tuning of a variant's evaluation parameters over `menagerie
//! datagen` data, and the listing of any variant's parameters. See the README ("Tuning").

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use menagerie::core::tunables::{TunableValue, Tunables};
use menagerie::variants::{Game, Variant};
use menagerie_tuning::{
    changes, fit_k, load_data, read_values, select, split_by_game, texel_loss, tune, white_eval,
    write_values, TexelConfig,
};

/// Texel tuning of menagerie's evaluators.
#[derive(Parser, Debug)]
#[command(name = "menagerie-tuning", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// List a variant's evaluation parameters: name, value, min, max, step.
    Params {
        /// Variant name.
        #[arg(long, value_parser = parse_variant)]
        variant: Variant,
    },
    /// The Texel loss of a parameter set (the defaults, or --values) over data files.
    Loss(Box<LossArgs>),
    /// Fit K, then tune the selected parameters by Adam; report the losses and write the
    /// tuned values.
    Texel(Box<TexelArgs>),
    /// Print every position of the data files with its static evaluation appended:
    /// `FEN | score | result | eval` (eval in centipawns from White's view, with the engine's
    /// set or --values), for trainers outside this crate (tuning/nnue).
    Evals(Box<LossArgs>),
    /// Train a variant's residual network on `menagerie datagen --format bin` files
    /// (docs/networks.md): prints each epoch's losses; writes the network of the best
    /// validation epoch to --out and the losses to <out>.losses.csv.
    Net(Box<NetArgs>),
}

#[derive(clap::Args, Debug)]
struct NetArgs {
    /// Variant of the data.
    #[arg(long, value_parser = parse_variant)]
    variant: Variant,
    /// A binary data file (repeat for several).
    #[arg(long = "data", required = true)]
    data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long)]
    out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 1024)]
    batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.002)]
    lr: f32,
    /// Weight of the game result in the target (the rest: the search score).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// L2 pull of the first layer towards 0.
    #[arg(long, default_value_t = 1e-6)]
    l2: f32,
    /// Share of the games held out for validation.
    #[arg(long, default_value_t = 0.1)]
    validation: f64,
    /// Centipawns of an output of 1.0.
    #[arg(long, default_value_t = 400.0)]
    out_scale: f32,
    /// Seed of the initial weights, the shuffles and the validation split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
    /// A network file of the variant to start from instead of random weights (fine-tuning);
    /// its output scale replaces --out-scale.
    #[arg(long)]
    init: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct LossArgs {
    /// Variant of the data.
    #[arg(long, value_parser = parse_variant)]
    variant: Variant,
    /// A data file of `menagerie datagen` (repeat for several).
    #[arg(long = "data", required = true)]
    data: Vec<PathBuf>,
    /// A values file (`name = value` lines) applied on the engine's set.
    #[arg(long)]
    values: Option<PathBuf>,
    /// The K of the sigmoid [default: fitted].
    #[arg(long)]
    k: Option<f64>,
}

#[derive(clap::Args, Debug)]
struct TexelArgs {
    /// Variant of the data.
    #[arg(long, value_parser = parse_variant)]
    variant: Variant,
    /// A data file of `menagerie datagen` (repeat for several).
    #[arg(long = "data", required = true)]
    data: Vec<PathBuf>,
    /// Tune only the parameters whose names start with one of these (comma-separated)
    /// [default: all].
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Leave out the parameters whose names start with one of these (comma-separated).
    #[arg(long, value_delimiter = ',')]
    exclude: Vec<String>,
    /// Share of the games held out for validation.
    #[arg(long, default_value_t = 0.1)]
    validation: f64,
    /// Rounds (each re-measures the linearised evaluation and reports the true losses).
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// Adam iterations per round.
    #[arg(long, default_value_t = 200)]
    iterations: usize,
    /// Adam learning rate (about the largest move of a parameter per iteration, its units).
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Weight of the game result in the target; the rest is the sigmoid of the search score.
    #[arg(long, default_value_t = 1.0)]
    lambda: f64,
    /// L2 pull towards the starting values (per squared unit).
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// The K of the sigmoid [default: fitted on the training data with the starting values].
    #[arg(long)]
    k: Option<f64>,
    /// Start from this values file (applied on the engine's set).
    #[arg(long)]
    init: Option<PathBuf>,
    /// Write every tuned value here (`name = value`, readable by --init and --values).
    #[arg(long)]
    out_values: Option<PathBuf>,
    /// Write the tuned declaration here: the items of the variant's `tunables!` block with the
    /// tuned defaults, and the set as one struct literal.
    #[arg(long)]
    out_rust: Option<PathBuf>,
    /// Worker threads [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
}

fn parse_variant(name: &str) -> Result<Variant, String> {
    Variant::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        format!("unknown variant '{name}' (known: {})", known.join(", "))
    })
}

fn list_params<G: Game>() -> String {
    let p = G::eval_params();
    let mut out = format!(
        "# {} evaluation parameters ({}): name value min max step\n",
        G::INFO.name,
        G::EvalParams::TYPE_NAME
    );
    for (i, name) in G::EvalParams::flat_names().iter().enumerate() {
        let s = G::EvalParams::spec(i);
        out.push_str(&format!(
            "{name} {} {} {} {}\n",
            p.get_at(i),
            s.min,
            s.max,
            s.step
        ));
    }
    out
}

/// The engine's set with the values file `path` (if any) applied.
fn start_values<G: Game>(path: Option<&PathBuf>) -> Result<G::EvalParams, String> {
    let mut p = G::eval_params().clone();
    if let Some(path) = path {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        read_values(&text, &path.display().to_string(), &mut p).map_err(|e| e.to_string())?;
    }
    Ok(p)
}

fn run_net<G: menagerie::variants::Game>(a: &NetArgs) -> Result<(), String> {
    use menagerie_tuning::net::{load_net_data, losses_csv, train, NetConfig};
    if let Some(t) = a.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .map_err(|e| e.to_string())?;
    }
    let samples = load_net_data::<G>(&a.data)?;
    let init = match &a.init {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let net = menagerie::variants::network::Network::parse(&bytes, G::INFO.name, G::INPUTS)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            println!(
                "starting from {} (output scale {})",
                path.display(),
                net.out_scale
            );
            Some(net)
        }
        None => None,
    };
    let cfg = NetConfig {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        lambda: a.lambda,
        l2: a.l2,
        validation: a.validation,
        out_scale: init.as_ref().map_or(a.out_scale, |n| n.out_scale as f32),
        seed: a.seed,
        init,
    };
    let trained = train::<G>(&samples, &cfg, &mut |line| println!("{line}"))?;
    let bytes = trained.net.to_bytes();
    std::fs::write(&a.out, &bytes).map_err(|e| format!("{}: {e}", a.out.display()))?;
    let mut csv = a.out.as_os_str().to_owned();
    csv.push(".losses.csv");
    let csv = PathBuf::from(csv);
    std::fs::write(&csv, losses_csv(&trained.losses))
        .map_err(|e| format!("{}: {e}", csv.display()))?;
    println!(
        "{}: epoch {} of {} kept ({} bytes); quantisation error {:.2} cp a position; losses in {}",
        a.out.display(),
        trained.best_epoch,
        a.epochs,
        bytes.len(),
        trained.quantisation_cp,
        csv.display()
    );
    Ok(())
}

/// Trains a network for any variant from its self-play data (chess's compiled-in network came
/// by another route, Stockfish's labels: docs/tuning.md), for every variant of the registry.
fn run_net_variant(a: &NetArgs) -> Result<(), String> {
    menagerie::with_variant!(a.variant, G => run_net::<G>(a))
}

fn run_loss<G: Game>(a: &LossArgs) -> Result<(), String> {
    let data = load_data::<G>(&a.data).map_err(|e| e.to_string())?;
    let p = start_values::<G>(a.values.as_ref())?;
    let k = a.k.unwrap_or_else(|| fit_k(&data, &p, 1.0));
    println!(
        "{} positions, K {k:.4}, loss {:.6}",
        data.len(),
        texel_loss(&data, &p, k, 1.0)
    );
    Ok(())
}

fn run_evals<G: Game>(a: &LossArgs) -> Result<(), String> {
    use std::io::Write;
    let data = load_data::<G>(&a.data).map_err(|e| e.to_string())?;
    let p = start_values::<G>(a.values.as_ref())?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut game = u64::MAX;
    for s in &data {
        if s.game != game {
            game = s.game;
            writeln!(out, "# game {game}").map_err(|e| e.to_string())?;
        }
        let r = if s.result == 1.0 {
            "1"
        } else if s.result == 0.0 {
            "0"
        } else {
            "0.5"
        };
        writeln!(
            out,
            "{} | {} | {r} | {}",
            s.pos.fen(),
            s.score,
            white_eval(&s.pos, &p)
        )
        .map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())
}

fn run_texel<G: Game>(a: &TexelArgs) -> Result<(), String> {
    let start = start_values::<G>(a.init.as_ref())?;
    let which = select::<G::EvalParams>(&a.only, &a.exclude)?;
    eprintln!("loading {} file(s)...", a.data.len());
    let data = load_data::<G>(&a.data).map_err(|e| e.to_string())?;
    let total = data.len();
    let (train, valid) = split_by_game(data, a.validation);
    println!(
        "{}: {total} positions, {} training, {} validation (held out by game); {} of {} parameters selected",
        G::INFO.name,
        train.len(),
        valid.len(),
        which.len(),
        G::EvalParams::count()
    );
    if train.is_empty() {
        return Err("no training positions".into());
    }
    let k = match a.k {
        Some(k) => k,
        None => fit_k(&train, &start, a.lambda),
    };
    let cfg = TexelConfig {
        rounds: a.rounds,
        iterations: a.iterations,
        learning_rate: a.lr,
        lambda: a.lambda,
        l2: a.l2,
    };
    let before = texel_loss(&train, &start, k, cfg.lambda);
    let before_valid = texel_loss(&valid, &start, k, cfg.lambda);
    println!("K {k:.4}");
    println!("before: train loss {before:.6}  validation loss {before_valid:.6}");
    let (tuned, rounds) = tune(&train, &valid, &start, &which, k, &cfg, &mut |r| {
        println!(
            "round {}: train loss {:.6}  validation loss {:.6}  (model {:.6})",
            r.round, r.train, r.validation, r.model
        );
    });
    // The round kept: the lowest training loss.
    let kept = rounds
        .iter()
        .filter(|r| r.train < before)
        .min_by(|a, b| a.train.total_cmp(&b.train));
    let (after, after_valid) = kept.map_or((before, before_valid), |r| (r.train, r.validation));
    println!(
        "after:  train loss {after:.6}  validation loss {after_valid:.6}  (round {} kept)",
        kept.map_or(0, |r| r.round)
    );
    let changed = changes(&start, &tuned);
    println!("{} parameters changed:", changed.len());
    for (name, old, new) in &changed {
        println!("  {name}: {old} -> {new}");
    }
    if let Some(path) = &a.out_values {
        std::fs::write(path, write_values(&tuned))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        println!("values written to {}", path.display());
    }
    if let Some(path) = &a.out_rust {
        let mut literal = String::new();
        tuned.write_rust(&mut literal);
        let text = format!(
            "// Tuned {} evaluation parameters ({}), K {k:.4}, train loss {before:.6} -> {:.6}, \
             validation {before_valid:.6} -> {:.6}.\n\
             // Paste the items into the variant's `tunables!` block (they replace its items), or\n\
             // use the struct literal at the end as the value of its parameter static.\n\n{}\n\
             // As one struct literal:\n// {literal}\n",
            G::INFO.name,
            G::EvalParams::TYPE_NAME,
            after,
            after_valid,
            tuned.declaration(),
        );
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("declaration written to {}", path.display());
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Params { variant } => {
            print!(
                "{}",
                menagerie::with_variant!(variant, G => list_params::<G>())
            );
            Ok(())
        }
        Cmd::Loss(a) => menagerie::with_variant!(a.variant, G => run_loss::<G>(&a)),
        Cmd::Evals(a) => menagerie::with_variant!(a.variant, G => run_evals::<G>(&a)),
        Cmd::Net(a) => run_net_variant(&a),
        Cmd::Texel(a) => {
            if let Some(n) = a.threads {
                // Only fails when a pool exists already, which cannot happen here.
                let _ = rayon::ThreadPoolBuilder::new()
                    .num_threads(n.max(1))
                    .build_global();
            }
            menagerie::with_variant!(a.variant, G => run_texel::<G>(&a))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
