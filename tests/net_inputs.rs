//! The network inputs of every variant with [`NetInputs`] (docs/networks.md): over the bench
//! positions and seeded random playouts every input is below `INPUTS`, none is set twice and
//! at most `MAX_ACTIVE` are set; and the inputs are colour-symmetric in every variant: White's
//! perspective of a position is Black's perspective of the colour-flipped position, and the
//! other way round.

use menagerie::core::Color;
use menagerie::variants::mitosis::Mitosis;
use menagerie::variants::mulligan_stew::MulliganStew;
use menagerie::variants::muster::Muster;
use menagerie::variants::mutatis_mutandis::MutatisMutandis;
use menagerie::variants::mystic::Mystic;
use menagerie::variants::network::{InputList, NetInputs, MAX_ACTIVE};
use menagerie::variants::playout::{Next, Playout};
use menagerie::variants::{Game, Notation, Rules, Scope, Variant};

/// The inputs of `pos` from `perspective`, sorted, after checking them: below `INPUTS`, no
/// duplicates, at most `MAX_ACTIVE` (pushing more would already have panicked).
fn checked<G: Game>(pos: &G, perspective: Color) -> Vec<u32> {
    let mut list = InputList::new();
    pos.inputs(perspective, &mut list);
    let fen = pos.fen();
    assert!(list.len() <= MAX_ACTIVE, "{fen}: {} inputs", list.len());
    let mut v = list.to_vec();
    v.sort_unstable();
    for w in v.windows(2) {
        assert_ne!(w[0], w[1], "{fen}: input {} twice", w[0]);
    }
    if let Some(&last) = v.last() {
        assert!(
            (last as usize) < G::INPUTS,
            "{fen}: input {last} of {}",
            G::INPUTS
        );
    }
    v
}

/// Calls `visit` on the bench positions (the start position when there are none) and on every
/// position of `games` seeded random playouts of at most `plies` plies from the start position
/// (a seeded random setup where the variant draws one).
fn positions<G: Game>(games: u64, plies: usize, mut visit: impl FnMut(&G)) {
    if G::SEARCH.bench_fens.is_empty() {
        visit(&G::startpos());
    }
    for fen in G::SEARCH.bench_fens {
        visit(&G::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")));
    }
    for game in 0..games {
        let mut pos = G::random_setup(game).unwrap_or_else(G::startpos);
        Playout::new(0x4e45_5449_4e50 + game, plies).run(&mut pos, |pos, _| {
            visit(pos);
            Next::stop_if(pos.verdict(Scope::Game).is_some())
        });
    }
}

/// Checks both perspectives' inputs over the bench positions and `games` random playouts;
/// returns the most inputs a perspective had.
fn inputs_are_sound<G: Game>(games: u64, plies: usize) -> usize {
    let mut most = 0;
    let mut seen = 0;
    positions::<G>(games, plies, |pos| {
        for side in Color::ALL {
            most = most.max(checked(pos, side).len());
        }
        seen += 1;
    });
    assert!(
        seen > games as usize * 10,
        "{}: {seen} positions",
        G::INFO.name
    );
    most
}

#[test]
fn inputs_are_in_range_distinct_and_few() {
    // The counts of docs/networks.md's table.
    assert_eq!(
        [
            Mystic::INPUTS,
            Muster::INPUTS,
            MulliganStew::INPUTS,
            Mitosis::INPUTS,
            MutatisMutandis::INPUTS
        ],
        [814, 896, 664, 1794, 6520]
    );
    // Every variant of the registry, so that one added is checked without a line here: seeded
    // playouts of 8 games of 120 plies unless its game asks for others.
    for &v in Variant::ALL {
        menagerie::with_variant!(v, G => {
            let (games, plies, most) = match G::INFO.name {
                "mulliganstew" => (8, 160, MAX_ACTIVE),
                // At most 64 pieces and 56 reserve, schedule and flag inputs.
                "mutatismutandis" => (6, 100, 120),
                _ => (8, 120, MAX_ACTIVE),
            };
            let active = inputs_are_sound::<G>(games, plies);
            assert!(active <= most, "{}: {active} inputs active at once", G::INFO.name);
        });
    }
}

/// The case of every ASCII letter swapped.
fn swap_case(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

/// The other side's letter.
fn other_side(side: &str) -> &'static str {
    if side == "w" {
        "b"
    } else {
        "w"
    }
}

/// The square `sq` (file letter, rank number) with its rank mirrored on a board of ranks
/// `low..=high`.
fn mirror_square(sq: &str, low: u32, high: u32) -> String {
    let rank: u32 = sq[1..].parse().unwrap();
    format!("{}{}", &sq[..1], low + high - rank)
}

/// White's perspective of `a` is Black's of `b` and the other way round.
fn assert_symmetric<G: Game>(a: &G, b: &G) {
    for side in Color::ALL {
        assert_eq!(
            checked(a, side),
            checked(b, !side),
            "{} seen by {side:?} against {} seen by {:?}",
            a.fen(),
            b.fen(),
            !side
        );
    }
}

/// Muster's colour flip: ranks mirrored, cases and side swapped, the castling Rook squares
/// mirrored (White's first), no en passant square.
fn flip_muster(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let board: Vec<String> = f[0].split('/').rev().map(swap_case).collect();
    let rights = if f[2] == "-" {
        "-".to_string()
    } else {
        let squares: Vec<String> = (0..f[2].len() / 2)
            .map(|i| mirror_square(&f[2][2 * i..2 * i + 2], 1, 8))
            .collect();
        let (mut white, mut black): (Vec<String>, Vec<String>) =
            squares.into_iter().partition(|s| s.ends_with('8'));
        std::mem::swap(&mut white, &mut black);
        white.extend(black);
        white.concat()
    };
    assert_eq!(f[3], "-", "{fen}: the flip writes no en passant square");
    format!(
        "{} {} {rights} - {} {}",
        board.join("/"),
        other_side(f[1]),
        f[4],
        f[5]
    )
}

#[test]
fn muster_inputs_are_colour_symmetric() {
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w a1h1a8h8 - 0 1",
        "rqqqkqqr/8/8/8/8/8/8/RQQQKQQR b a1h8 - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let flipped = flip_muster(fen);
        let a = Muster::from_fen(fen).unwrap();
        let b = Muster::from_fen(&flipped).unwrap_or_else(|e| panic!("{flipped}: {e}"));
        assert_symmetric(&a, &b);
    }
}

/// Mulligan Stew over random playouts, flipped by the rules tests' `flip` (hands, pools,
/// portion and moved square included).
#[test]
fn mulligan_stew_inputs_are_colour_symmetric() {
    let mut n = 0;
    positions::<MulliganStew>(4, 80, |pos| {
        let flipped = crate::mulligan_stew::flip(&pos.fen());
        let b = MulliganStew::from_fen(&flipped).unwrap_or_else(|e| panic!("{flipped}: {e}"));
        assert_symmetric(pos, &b);
        n += 1;
    });
    assert!(n > 100);
    // The pair of the evaluation's symmetry test (tests/mulligan_stew.rs).
    let a =
        MulliganStew::from_fen("r1mka1/p1p2p/p3p1/2Pp2/A2cPP/PPKPa1/RA1M1C[-] w - - 4 6 pool:Q/q");
    let b =
        MulliganStew::from_fen("ra1m1c/ppkpA1/a2Cpp/2pP2/P3P1/P1P2P/R1MKA1[-] b - - 4 6 pool:Q/q");
    assert_symmetric(&a.unwrap(), &b.unwrap());
}

/// Mitosis's colour flip: rows (bases included) reversed, cases swapped (the pending parts'
/// too), side swapped.
fn flip_mitosis(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let (board, hand) = f[0].split_once('[').unwrap();
    let rows: Vec<String> = board.split('/').rev().map(swap_case).collect();
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        f[3].split(',')
            .map(|s| mirror_square(s, 0, 10))
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{}[{} {} - {ep} {} {}",
        rows.join("/"),
        swap_case(hand),
        other_side(f[1]),
        f[4],
        f[5]
    )
}

#[test]
fn mitosis_inputs_are_colour_symmetric() {
    let mut n = 0;
    positions::<Mitosis>(4, 80, |pos| {
        let fen = pos.fen();
        if fen.split(' ').nth(3) != Some("-") {
            return; // En passant squares are no input; their FEN form is not flipped here.
        }
        let flipped = flip_mitosis(&fen);
        let b = Mitosis::from_fen(&flipped).unwrap_or_else(|e| panic!("{fen} -> {flipped}: {e}"));
        assert_symmetric(pos, &b);
        n += 1;
    });
    assert!(n > 100);
    // Pairs of the evaluation's symmetry test (src/variants/mitosis/eval.rs), flipped by hand:
    // a pending part in hand, and a late position; the flip above agrees.
    for (a, b) in [
        (
            "***1n1***/k8/9/5Q3/9/9/9/7p1/9/4K4/***3***[rb] b - - 0 1",
            "***3***/4k4/9/7P1/9/9/9/5q3/9/K8/***1N1***[RB] w - - 0 1",
        ),
        (
            "***3***/4k4/2p6/9/3r5/5P3/9/2B6/4K4/9/***3***[-] w - - 70 30",
            "***3***/9/4k4/2b6/9/5p3/3R5/9/2P6/4K4/***3***[-] b - - 70 30",
        ),
    ] {
        assert_eq!(flip_mitosis(a), b);
        assert_symmetric(
            &Mitosis::from_fen(a).unwrap_or_else(|e| panic!("{a}: {e}")),
            &Mitosis::from_fen(b).unwrap_or_else(|e| panic!("{b}: {e}")),
        );
    }
}

/// Mystic's colour flip: ranks mirrored, cases and side swapped, the en passant square
/// mirrored, the coins and the bought Pawns exchanged.
fn flip_mystic(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let board: Vec<String> = f[0].split('/').rev().map(swap_case).collect();
    assert_eq!(f[2], "-", "{fen}: Mystic has no castling");
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        mirror_square(f[3], 1, 8)
    };
    let mut out = format!(
        "{} {} - {ep} {} {}",
        board.join("/"),
        other_side(f[1]),
        f[4],
        f[5]
    );
    for tag in &f[6..] {
        let (name, value) = tag.split_once(':').unwrap();
        let (w, b) = value.split_once('/').unwrap();
        out.push_str(&format!(" {name}:{b}/{w}"));
    }
    out
}

/// Mystic over random playouts (purchases, upgrades and en passant squares included), and the
/// pair of the evaluation's symmetry test (src/variants/mystic/eval.rs), flipped by hand.
#[test]
fn mystic_inputs_are_colour_symmetric() {
    let (mut n, mut economies, mut en_passant) = (0, 0, 0);
    positions::<Mystic>(4, 100, |pos| {
        let fen = pos.fen();
        let flipped = flip_mystic(&fen);
        let b = Mystic::from_fen(&flipped).unwrap_or_else(|e| panic!("{fen} -> {flipped}: {e}"));
        assert_symmetric(pos, &b);
        n += 1;
        economies += usize::from(pos.coins(Color::White) != pos.coins(Color::Black));
        en_passant += usize::from(fen.split(' ').nth(3) != Some("-"));
    });
    assert!(n > 100, "{n}");
    // The sides' coins often differ (their inputs do not agree by chance), and some positions
    // have an en passant square.
    assert!(economies * 4 > n, "{economies} of {n}");
    assert!(en_passant > 0);
    let a = "4k3/3p4/8/2q5/8/4P3/3B4/4K3 w - - 0 9 coins:5/7 bought:3/2";
    let b = "4k3/3b4/4p3/8/2Q5/8/3P4/4K3 b - - 0 9 coins:7/5 bought:2/3";
    assert_eq!(flip_mystic(a), b);
    assert_symmetric(&Mystic::from_fen(a).unwrap(), &Mystic::from_fen(b).unwrap());
}

/// Mutatis Mutandis's colour flip of a FEN without en passant or swap-ban square: ranks
/// mirrored, cases and side swapped, the cornering flags, reserves and drop counts exchanged.
fn flip_mutatis(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let board: Vec<String> = f[0].split('/').rev().map(swap_case).collect();
    let flags = if f[2] == "-" {
        "-".to_string()
    } else {
        let s = swap_case(f[2]);
        let up: String = s.chars().filter(char::is_ascii_uppercase).collect();
        up + &s
            .chars()
            .filter(char::is_ascii_lowercase)
            .collect::<String>()
    };
    assert_eq!(f[3], "-");
    let mut out = format!(
        "{} {} {flags} - {} {}",
        board.join("/"),
        other_side(f[1]),
        f[4],
        f[5]
    );
    for tag in &f[6..] {
        let (name, value) = tag.split_once(':').unwrap();
        let value = match (name, value.split_once('/')) {
            ("reserve", Some((w, b))) => format!("{}/{}", swap_case(b), swap_case(w)),
            ("drops", Some((w, b))) => format!("{b}/{w}"),
            _ => value.to_string(),
        };
        out.push_str(&format!(" {name}:{value}"));
    }
    out
}

/// Mutatis Mutandis's drop schedule is not colour-symmetric (Blue's windows open a turn
/// earlier, rules 8), so the positions are late enough that both leads read as the cap.
#[test]
fn mutatis_inputs_are_colour_symmetric() {
    for fen in [
        "[gr][nr]k[dk][ch]r[da][wi]/pppppppp/8/8/8/8/PPPPPPPP/[LL][AR]CKQ[MA][HN][IM] w KAHkah - 0 20 reserve:AM.NR.DA.DK.N.GR.CR.R.NW.PV.CH.WI.OX/q.am.ar.c.n.cr.nw.pv.ll.im.ma.hn.ox drops:0/0 swapban:-",
        "4k3/8/8/3[gr]4/8/8/4P3/R3K3 b AK - 3 30 reserve:NR.DA/q drops:2/1 swapban:-",
    ] {
        let flipped = flip_mutatis(fen);
        let a = MutatisMutandis::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let b = MutatisMutandis::from_fen(&flipped).unwrap_or_else(|e| panic!("{flipped}: {e}"));
        assert_symmetric(&a, &b);
    }
}

/// A variant's compiled-in network (`src/variants/<variant>/network.nnv`): it parses for the
/// variant's name and inputs, the slot holds it from the first use, and the evaluation that
/// the search uses (`Evaluation::evaluate`: the hand-written score plus the residual, read
/// from the sums the position keeps through make/unmake) is, in every position, the variant's
/// hand-written evaluation `hand` plus the output of a copy of the network parsed here from
/// the file's bytes and summed from scratch: two computations apart from the engine's. The
/// residual is not zero in most positions, so an evaluation without it (or with another
/// network) fails. Only reads the slot, which other tests of this process play with.
fn compiled_in_network_corrects<G: Game>(hand: fn(&G) -> i32) {
    let name = G::INFO.name;
    let net = G::slot()
        .default_net()
        .unwrap_or_else(|| panic!("{name} has no compiled-in network"))
        .network()
        .unwrap_or_else(|| panic!("{name}'s network.nnv does not parse"));
    assert_eq!((net.variant.as_str(), net.w1.len()), (name, G::INPUTS));
    assert_eq!(G::slot().get(), Some(&net), "{name}");
    let (mut seen, mut corrected) = (0, 0);
    positions::<G>(2, 40, |pos| {
        let (hand, net) = (hand(pos), net.evaluate(pos));
        assert_eq!(
            pos.evaluate(),
            hand + net,
            "{name}: {} (hand-written {hand}, network {net})",
            pos.fen()
        );
        seen += 1;
        corrected += usize::from(net != 0);
    });
    assert!(
        corrected * 2 > seen,
        "{name}: {corrected} of {seen} positions corrected"
    );
}

#[test]
fn the_variants_with_a_network_play_with_it() {
    use menagerie::variants::{mitosis, mulligan_stew, muster, mutatis_mutandis, mystic};
    compiled_in_network_corrects::<Mystic>(mystic::eval::evaluate);
    compiled_in_network_corrects::<MulliganStew>(mulligan_stew::eval::evaluate);
    compiled_in_network_corrects::<Mitosis>(mitosis::eval::evaluate);
    compiled_in_network_corrects::<MutatisMutandis>(mutatis_mutandis::eval::evaluate);
    compiled_in_network_corrects::<Muster>(muster::eval::evaluate);
}
