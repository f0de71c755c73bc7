//! A residual network for any variant, over the sparse inputs the variant defines
//! ([`NetInputs`]): one design for every game, chess included, written once.
//!
//! The engine's score is `hce + net` (centipawns, side to move's view): the network learns what
//! the hand-written evaluation misses, from the variant's own self-play games (`menagerie
//! datagen --format bin`, trained by `menagerie-tuning net`; docs/networks.md).
//!
//! Shape: `INPUTS` binary inputs per perspective (what they mean is the variant's: typically
//! the colour relative to the perspective, the piece kind or state, and the square seen from
//! the perspective, plus hand and reserve counts), a [`HIDDEN`]-wide layer shared by both
//! perspectives, clipped ReLU to `[0, QA]`, and one output over both halves (the side to
//! move's first), in units of `out_scale` centipawns. Integer arithmetic throughout, so every
//! machine gives the same score. The first layer is summed in `i32` (no overflow whatever the
//! number of men; at most [`MAX_ACTIVE`] inputs): from scratch at each evaluation
//! ([`Network::evaluate`], [`residual_from_scratch`]), or kept through make/unmake by a
//! [`NetAccumulator`] in the variants whose make reports what changes (every variant's now),
//! with the same result.
//!
//! # The file (`MNV1`), little-endian
//!
//! ```text
//! "MNV1"  u8 n  n bytes: the variant's protocol name
//! u32 inputs  u32 hidden (= HIDDEN)  u32 out_scale
//! first layer: inputs x hidden i16 (input-major, times QA)   bias: hidden i16 (times QA)
//! output weights: 2 x hidden i16 (times QB)                  output bias: i32 (times QA * QB)
//! ```
//!
//! A file of another variant, another input count or width, or the wrong length is refused
//! with a [`NetError`]; the network in use stays.

use std::sync::atomic::{AtomicPtr, Ordering};

use arrayvec::ArrayVec;

use crate::core::Color;
use crate::variants::{Evaluation, Rules};

/// Width of the hidden layer per perspective.
pub const HIDDEN: usize = 32;
/// Scale of the first layer's weights and of the clipped activation (1.0 = `QA`).
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Most inputs a position may set per perspective.
pub const MAX_ACTIVE: usize = 256;
/// The file's first four bytes.
pub const MAGIC: &[u8; 4] = b"MNV1";

/// The active inputs of one perspective, each below [`NetInputs::INPUTS`].
pub type InputList = ArrayVec<u32, MAX_ACTIVE>;

/// A variant's network: its inputs, the slot `EvalFile` fills, and the sums its positions
/// keep. Every game implements it ([`crate::variants::Game`] requires it); the glue between the
/// protocol and the slot (`EvalFile`, perft's release of the sums) is written once, as the
/// defaults below.
pub trait NetInputs: Rules {
    /// Number of inputs per perspective.
    const INPUTS: usize;

    /// Pushes the inputs set in this position seen from `perspective` (each below
    /// [`NetInputs::INPUTS`], none twice). Never allocates.
    fn inputs(&self, perspective: Color, out: &mut InputList);

    /// The variant's network slot (what `EvalFile` fills; empty: the hand-written evaluation
    /// plays alone).
    fn slot() -> &'static NetSlot;

    /// Inputs among [`NetInputs::inputs`] that change at nearly every ply (White's view,
    /// Black's view): a [`NetAccumulator`] leaves them out of the sums it keeps and adds them
    /// at each evaluation, so that make does not record them. Default: none.
    #[inline(always)]
    fn volatile_inputs(&self) -> VolatileInputs {
        VolatileInputs::new()
    }

    /// The network's sums this position keeps through make/unmake.
    fn accumulator(&self) -> &NetAccumulator;

    /// The same, to update ([`open_ply`], [`NetAccumulator::add`], [`NetAccumulator::pop`]).
    fn accumulator_mut(&mut self) -> &mut NetAccumulator;

    /// `EvalFile` (protocol.md 1): puts the network file at `path` in the variant's slot, or
    /// empties the slot for `None` (the hand-written evaluation alone), or takes the
    /// compiled-in network for [`DEFAULT_FILE`]; returns a line saying what is in use.
    ///
    /// Errors: the file cannot be read or is not this variant's network of this shape; the
    /// slot is then unchanged.
    fn load_network(path: Option<&std::path::Path>) -> Result<String, String> {
        set_eval_file::<Self>(path)
    }

    /// Stops keeping the network's sums through make/unmake on this position
    /// ([`NetAccumulator::detach`]): for walks that never evaluate, such as perft. An
    /// evaluation afterwards is still right, computed from scratch.
    fn detach_network(&mut self) {
        self.accumulator_mut().detach();
    }
}

/// The volatile inputs of a position ([`NetInputs::volatile_inputs`]), each in White's and
/// Black's views.
pub type VolatileInputs = ArrayVec<[u32; 2], 8>;

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// The file does not start with `MNV1`.
    #[error("not a menagerie variant network (no MNV1 header)")]
    Magic,
    /// The file is another variant's.
    #[error("a network for '{0}', not '{1}'")]
    Variant(String, String),
    /// The input count or hidden width is not this build's.
    #[error("{0} inputs and width {1}; this build expects {2} inputs and width {HIDDEN}")]
    Shape(u32, u32, usize),
    /// The file is shorter or longer than its header says.
    #[error("network file of {0} bytes, expected {1}")]
    Size(usize, usize),
}

/// A variant's network: the weights, quantised (layout in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The variant's protocol name.
    pub variant: String,
    /// First layer, one row per input (`inputs` rows), times [`QA`].
    pub w1: Vec<[i16; HIDDEN]>,
    /// First layer's bias, times [`QA`].
    pub b1: [i16; HIDDEN],
    /// Output weights, the side to move's half first, times [`QB`].
    pub w2: [i16; 2 * HIDDEN],
    /// Output bias, times `QA * QB`.
    pub b2: i32,
    /// Centipawns of an output of 1.0.
    pub out_scale: i32,
}

impl Network {
    /// Parses a network file for `variant` with `inputs` inputs.
    ///
    /// Errors: a wrong header, variant, shape or length.
    pub fn parse(bytes: &[u8], variant: &str, inputs: usize) -> Result<Network, NetError> {
        if bytes.len() < 5 || &bytes[..4] != MAGIC {
            return Err(NetError::Magic);
        }
        let n = usize::from(bytes[4]);
        let name = bytes
            .get(5..5 + n)
            .ok_or(NetError::Size(bytes.len(), 5 + n))?;
        let name = String::from_utf8_lossy(name).into_owned();
        if name != variant {
            return Err(NetError::Variant(name, variant.to_string()));
        }
        let mut at = 5 + n;
        if bytes.len() < at + 12 {
            return Err(NetError::Size(bytes.len(), at + 12));
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let (file_inputs, hidden, out_scale) = (u32_at(at), u32_at(at + 4), u32_at(at + 8));
        if file_inputs as usize != inputs || hidden as usize != HIDDEN {
            return Err(NetError::Shape(file_inputs, hidden, inputs));
        }
        at += 12;
        let expected = at + 2 * (inputs * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;
        if bytes.len() != expected {
            return Err(NetError::Size(bytes.len(), expected));
        }
        let mut next = || {
            let v = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
            at += 2;
            v
        };
        let mut w1 = vec![[0i16; HIDDEN]; inputs];
        for w in w1.iter_mut().flatten() {
            *w = next();
        }
        let mut b1 = [0i16; HIDDEN];
        b1.iter_mut().for_each(|b| *b = next());
        let mut w2 = [0i16; 2 * HIDDEN];
        w2.iter_mut().for_each(|w| *w = next());
        let b2 = i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        Ok(Network {
            variant: name,
            w1,
            b1,
            w2,
            b2,
            out_scale: out_scale as i32,
        })
    }

    /// The file's bytes ([`Network::parse`] reads them back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(32 + 2 * self.w1.len() * HIDDEN);
        out.extend_from_slice(MAGIC);
        out.push(self.variant.len() as u8);
        out.extend_from_slice(self.variant.as_bytes());
        for v in [self.w1.len() as u32, HIDDEN as u32, self.out_scale as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let rows = self.w1.iter().flatten().chain(&self.b1).chain(&self.w2);
        for w in rows {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// The first layer's sums (times [`QA`]) of one perspective's inputs.
    #[inline]
    fn layer(&self, inputs: &[u32]) -> [i32; HIDDEN] {
        let mut acc = self.b1.map(i32::from);
        for &i in inputs {
            // Inputs beyond the rows (a variant's bug) are skipped, not a panic in the search.
            if let Some(row) = self.w1.get(i as usize) {
                for (a, &w) in acc.iter_mut().zip(row) {
                    *a += i32::from(w);
                }
            }
        }
        acc
    }

    /// The first-layer sums of both colours' inputs in `pos` (indexed by [`Color::index`]),
    /// from scratch: what a [`NetAccumulator`] holds.
    pub fn sums<G: NetInputs>(&self, pos: &G) -> Sums {
        let mut sums = [[0; HIDDEN]; 2];
        let mut list = InputList::new();
        for color in Color::ALL {
            list.clear();
            pos.inputs(color, &mut list);
            sums[color.index()] = self.layer(&list);
        }
        sums
    }

    /// The output for first-layer sums `sums` with `stm` to move: the residual in
    /// centipawns from the side to move's view (truncated towards zero).
    #[inline]
    pub fn output(&self, sums: &Sums, stm: Color) -> i32 {
        let (us, them) = (&sums[stm.index()], &sums[(!stm).index()]);
        // In i32: at most 2 * HIDDEN * QA * 32768 = 534,773,760 in size, below 2^31.
        let mut sum = 0i32;
        for i in 0..HIDDEN {
            sum += us[i].clamp(0, QA) * i32::from(self.w2[i]);
            sum += them[i].clamp(0, QA) * i32::from(self.w2[HIDDEN + i]);
        }
        let sum = i64::from(sum) + i64::from(self.b2);
        (sum * i64::from(self.out_scale) / i64::from(QA * QB)) as i32
    }

    /// The residual for `pos`, in centipawns from the side to move's view (truncated
    /// towards zero), summed from scratch. Never allocates.
    pub fn evaluate<G: NetInputs>(&self, pos: &G) -> i32 {
        self.output(&self.sums(pos), pos.side_to_move())
    }

    /// Adds input `input`'s row to `acc` (inputs beyond the rows are skipped, as in
    /// [`Network::evaluate`]).
    #[inline(always)]
    fn add_row(&self, acc: &mut [i32; HIDDEN], input: u32) {
        if let Some(row) = self.w1.get(input as usize) {
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += i32::from(w);
            }
        }
    }

    /// Subtracts input `input`'s row from `acc`.
    #[inline(always)]
    fn sub_row(&self, acc: &mut [i32; HIDDEN], input: u32) {
        if let Some(row) = self.w1.get(input as usize) {
            for (a, &w) in acc.iter_mut().zip(row) {
                *a -= i32::from(w);
            }
        }
    }
}

/// First-layer sums of both colours' perspectives, indexed by [`Color::index`], times [`QA`].
pub type Sums = [[i32; HIDDEN]; 2];

/// The first-layer sums of a position kept through make/unmake, so that an evaluation reads
/// them rather than summing every input: the incremental form of [`Network::evaluate`], with
/// exactly its result (integer sums). Lazy: make only records which inputs the ply sets and
/// clears; a position's sums are computed from its parent's when it is evaluated (into a
/// copy) or when a ply is made from it, so plies made and taken back unevaluated (legality
/// tests, pruned moves) cost no rows. What a variant does to keep one beside its position:
///
/// 1. in make, before anything changes, [`open_ply`] (when [`NetAccumulator::stale`] says
///    `EvalFile` put another network in the slot, [`NetAccumulator::refresh`] with
///    [`NetAccumulator::fresh`] of the position; then [`NetAccumulator::push`]), and
///    [`NetAccumulator::add`] / [`NetAccumulator::sub`] for each input the ply sets or clears
///    (what [`NetInputs::inputs`] would list, in both colours' views);
/// 2. in unmake: [`NetAccumulator::pop`]; a null move pushes and pops alone;
/// 3. in the evaluation: [`residual`].
#[derive(Clone, Default)]
pub struct NetAccumulator {
    /// Per ply since the position the accumulator was made for (that one first).
    plies: Vec<PlySums>,
    /// Per ply: its sums, valid where the ply's `computed` is set.
    sums: Vec<Sums>,
    /// The changes of every ply, in order (each ply's from its `start`).
    changes: Vec<Change>,
    /// Set by [`NetAccumulator::detach`]: no sums are kept, whatever the slot holds.
    detached: bool,
}

impl std::fmt::Debug for NetAccumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetAccumulator")
            .field("plies", &self.plies.len())
            .field("changes", &self.changes.len())
            .field("detached", &self.detached)
            .finish()
    }
}

/// What a [`NetAccumulator`] knows of one ply.
#[derive(Clone, Copy)]
struct PlySums {
    /// The network of the sums (computed: its own; else its parent's).
    net: Option<&'static Network>,
    /// Whether the ply's sums are computed.
    computed: bool,
    /// Where its changes start.
    start: u32,
}

/// An input set (`add`) or cleared by a ply, in each colour's view (by [`Color::index`]).
#[derive(Clone, Copy)]
struct Change {
    inputs: [u32; 2],
    add: bool,
}

impl NetAccumulator {
    /// The accumulator of `pos` under `G`'s network (zeros when the slot is empty), with
    /// room for `reserve` plies.
    pub fn new<G: NetInputs>(pos: &G, reserve: usize) -> NetAccumulator {
        let (net, sums) = NetAccumulator::fresh(pos);
        let mut acc = NetAccumulator {
            plies: Vec::with_capacity(reserve),
            sums: Vec::with_capacity(reserve),
            changes: Vec::with_capacity(8 * reserve),
            detached: false,
        };
        acc.plies.push(PlySums {
            net,
            computed: true,
            start: 0,
        });
        acc.sums.push(sums);
        acc
    }

    /// The slot's network and the sums of `pos` under it, from scratch.
    #[cold]
    pub fn fresh<G: NetInputs>(pos: &G) -> (Option<&'static Network>, Sums) {
        let net = G::slot().get();
        let sums = net.map_or([[0; HIDDEN]; 2], |n| {
            let mut sums = n.sums(pos);
            for inputs in pos.volatile_inputs() {
                for (view, input) in inputs.into_iter().enumerate() {
                    n.sub_row(&mut sums[view], input);
                }
            }
            sums
        });
        (net, sums)
    }

    /// Whether the sums of the position as it stands are not of the slot's network
    /// (`EvalFile` changed it since): then [`NetAccumulator::refresh`] before the ply.
    #[inline(always)]
    pub fn stale<G: NetInputs>(&self) -> bool {
        let top = self.plies.last().expect("the root's sums");
        !same(G::slot().get(), top.net)
    }

    /// Whether [`NetAccumulator::detach`] was called: nothing is kept any more.
    #[inline(always)]
    pub fn is_detached(&self) -> bool {
        self.detached
    }

    /// Test support: how many plies' sums the accumulator holds (the root's counted).
    #[cfg(test)]
    pub(crate) fn sums_kept(&self) -> usize {
        self.sums.len()
    }

    /// Keeps no sums from the position as it stands on, for a walk that never evaluates
    /// (perft): [`open_ply`] then does nothing, [`NetAccumulator::pop`] only drops what make
    /// recorded, and [`NetAccumulator::recording`] is false (chess's make asks
    /// [`NetAccumulator::is_detached`] and records nothing). An evaluation stays right:
    /// [`residual`] then computes the network's sums from scratch.
    pub fn detach(&mut self) {
        if let Some(top) = self.plies.last_mut() {
            top.net = None;
            top.computed = true;
        }
        self.detached = true;
    }

    /// Replaces the sums of the position as it stands by `fresh`
    /// ([`NetAccumulator::fresh`]).
    #[cold]
    pub fn refresh(&mut self, fresh: (Option<&'static Network>, Sums)) {
        let t = self.plies.len() - 1;
        self.plies[t].net = fresh.0;
        self.plies[t].computed = true;
        if self.sums.len() <= t {
            self.sums.resize(t + 1, [[0; HIDDEN]; 2]);
        }
        self.sums[t] = fresh.1;
    }

    /// Opens a ply: computes the sums of the position as it stands, then records the ply's
    /// changes from here on.
    #[inline(always)]
    pub fn push(&mut self) {
        let t = self.plies.len() - 1;
        let ply = self.plies[t];
        if !ply.computed {
            if self.sums.len() <= t {
                self.sums.resize(t + 1, [[0; HIDDEN]; 2]);
            }
            let mut sums = self.sums[t - 1];
            apply_changes(ply.net, &self.changes[ply.start as usize..], &mut sums);
            self.sums[t] = sums;
            self.plies[t].computed = true;
        }
        self.plies.push(PlySums {
            net: ply.net,
            computed: false,
            start: self.changes.len() as u32,
        });
    }

    /// Takes the last ply back.
    #[inline(always)]
    pub fn pop(&mut self) {
        if self.detached {
            // What make recorded anyway (Mystic's and Muster's) is dropped with the ply.
            self.changes.clear();
            return;
        }
        let ply = self.plies.pop().expect("a push per ply");
        self.changes.truncate(ply.start as usize);
    }

    /// Whether the changes of the ply opened last are of use: true when its sums are of a
    /// network. Without one (the slot was empty when the ply was opened) make may skip its
    /// records: no network ever reads them, since [`open_ply`] computes the sums afresh once
    /// a network is loaded, and a position whose sums are of no network is evaluated from
    /// scratch ([`residual`]).
    #[inline(always)]
    pub fn recording(&self) -> bool {
        self.plies.last().is_some_and(|p| p.net.is_some())
    }

    /// The ply sets input `inputs[c]` in colour `c`'s view.
    #[inline(always)]
    pub fn add(&mut self, inputs: [u32; 2]) {
        self.changes.push(Change { inputs, add: true });
    }

    /// The ply clears input `inputs[c]` in colour `c`'s view.
    #[inline(always)]
    pub fn sub(&mut self, inputs: [u32; 2]) {
        self.changes.push(Change { inputs, add: false });
    }

    /// Test support: the inputs of colour `view`'s perspective that the records say are set,
    /// from `root` (the inputs of the position the accumulator was made for) through every
    /// ply's changes. Panics when a change clears an input that is not set.
    #[cfg(test)]
    pub(crate) fn recorded_inputs(&self, root: &[u32], view: Color) -> Vec<u32> {
        let mut set = root.to_vec();
        for c in &self.changes {
            let input = c.inputs[view.index()];
            if c.add {
                set.push(input);
            } else {
                let at = set.iter().position(|&i| i == input);
                set.swap_remove(at.unwrap_or_else(|| panic!("input {input} cleared, not set")));
            }
        }
        set.sort_unstable();
        set
    }
}

/// Opens a ply in the sums `pos` keeps ([`NetInputs::accumulator_mut`]; step 1 of
/// [`NetAccumulator`]'s use): afresh first when `EvalFile` put another network in the slot
/// since, then [`NetAccumulator::push`]. Called by make before anything changes, and by a null
/// move.
#[inline(always)]
pub fn open_ply<G: NetInputs>(pos: &mut G) {
    if pos.accumulator().detached {
        return;
    }
    if pos.accumulator().stale::<G>() {
        let fresh = NetAccumulator::fresh(&*pos);
        pos.accumulator_mut().refresh(fresh);
    }
    pos.accumulator_mut().push();
}

/// Whether two slots' contents are the same network (networks are never freed, so the
/// address says which).
#[inline(always)]
fn same(a: Option<&'static Network>, b: Option<&'static Network>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => std::ptr::eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

/// Applies `changes` to `sums` by `net` (nothing without one).
#[inline(always)]
fn apply_changes(net: Option<&Network>, changes: &[Change], sums: &mut Sums) {
    if let Some(net) = net {
        for c in changes {
            for (view, &input) in c.inputs.iter().enumerate() {
                if c.add {
                    net.add_row(&mut sums[view], input);
                } else {
                    net.sub_row(&mut sums[view], input);
                }
            }
        }
    }
}

/// The network's residual of `pos` in centipawns from the side to move's view (what it adds
/// to the hand-written evaluation; 0 when the slot is empty), [`residual_from_scratch`]'s
/// value: read from the sums the position keeps (the last ply's changes applied to a copy of
/// its parent's sums when it was not computed yet, and the volatile inputs added) when they
/// are of the slot's network, else summed from scratch.
#[inline]
pub fn residual<G: NetInputs>(pos: &G) -> i32 {
    let acc = pos.accumulator();
    let Some(net) = G::slot().get() else {
        return 0;
    };
    let t = acc.plies.len() - 1;
    let ply = acc.plies[t];
    if !same(Some(net), ply.net) {
        return net.evaluate(pos);
    }
    let volatile = pos.volatile_inputs();
    if ply.computed && volatile.is_empty() {
        return net.output(&acc.sums[t], pos.side_to_move());
    }
    let mut sums = if ply.computed {
        acc.sums[t]
    } else {
        let mut sums = acc.sums[t - 1];
        apply_changes(Some(net), &acc.changes[ply.start as usize..], &mut sums);
        sums
    };
    for inputs in volatile {
        for (view, input) in inputs.into_iter().enumerate() {
            net.add_row(&mut sums[view], input);
        }
    }
    net.output(&sums, pos.side_to_move())
}

/// The value of `EvalFile` that stands for a variant's compiled-in network.
pub const DEFAULT_FILE: &str = "<default>";

/// A variant's compiled-in network: its file's bytes, read at the first evaluation.
#[derive(Copy, Clone, Debug)]
pub struct DefaultNet {
    /// The variant's protocol name (what the file must say).
    pub variant: &'static str,
    /// The variant's input count.
    pub inputs: usize,
    /// The `MNV1` file.
    pub bytes: &'static [u8],
}

impl DefaultNet {
    /// The parsed network; `None` when the compiled-in file does not parse (a test of each
    /// variant with a default network asserts that it does).
    pub fn network(&self) -> Option<Network> {
        Network::parse(self.bytes, self.variant, self.inputs).ok()
    }
}

/// Where a variant's network lives: empty, or a network that stays valid for the process's
/// life (a replaced network is leaked, not freed, so a search running on it never sees it go;
/// networks are replaced only by `EvalFile`, a few times a session at most). A slot made with
/// [`NetSlot::with_default`] holds its compiled-in network from the first use on.
pub struct NetSlot {
    net: AtomicPtr<Network>,
    default: Option<DefaultNet>,
    init: std::sync::Once,
}

impl NetSlot {
    /// An empty slot (the variant has no compiled-in network).
    pub const fn new() -> NetSlot {
        NetSlot {
            net: AtomicPtr::new(std::ptr::null_mut()),
            default: None,
            init: std::sync::Once::new(),
        }
    }

    /// A slot holding `default` until `EvalFile` says otherwise.
    pub const fn with_default(default: DefaultNet) -> NetSlot {
        NetSlot {
            net: AtomicPtr::new(std::ptr::null_mut()),
            default: Some(default),
            init: std::sync::Once::new(),
        }
    }

    /// The compiled-in network, if the variant has one.
    pub fn default_net(&self) -> Option<DefaultNet> {
        self.default
    }

    /// Puts the compiled-in network in at the first use.
    #[inline(always)]
    fn ensure_init(&self) {
        if !self.init.is_completed() {
            self.init.call_once(|| {
                if let Some(net) = self.default.and_then(|d| d.network()) {
                    self.net
                        .store(Box::leak(Box::new(net)) as *mut Network, Ordering::Release);
                }
            });
        }
    }

    /// The network in the slot.
    #[inline(always)]
    pub fn get(&self) -> Option<&'static Network> {
        self.ensure_init();
        let p = self.net.load(Ordering::Acquire);
        // SAFETY: a non-null pointer came from `Box::leak` and is never freed.
        unsafe { p.as_ref() }
    }

    /// Puts `net` in the slot (`None` empties it).
    pub fn set(&self, net: Option<Network>) {
        self.ensure_init();
        let p = net.map_or(std::ptr::null_mut(), |n| {
            Box::leak(Box::new(n)) as *mut Network
        });
        self.net.store(p, Ordering::Release);
    }
}

impl Default for NetSlot {
    fn default() -> Self {
        NetSlot::new()
    }
}

/// The network's residual of `pos` in centipawns from the side to move's view, summed from
/// scratch: 0 when the variant's slot is empty.
#[inline]
pub fn residual_from_scratch<G: NetInputs>(pos: &G) -> i32 {
    match G::slot().get() {
        Some(net) => net.evaluate(pos),
        None => 0,
    }
}

/// The `eval` report `report` of `pos` ([`crate::variants::Evaluation::eval_report`]), with
/// the network's residual and the final evaluation appended when a network is loaded (as is
/// when the slot is empty).
pub fn with_residual<G: NetInputs + Evaluation>(pos: &G, mut report: String) -> String {
    if G::slot().get().is_some() {
        report.push_str(&format!(
            "\nNetwork residual (EvalFile, side to move): {}\n\
             Final evaluation with the network (side to move): {}\n",
            residual_from_scratch(pos),
            pos.evaluate()
        ));
    }
    report
}

/// `EvalFile` for a variant ([`NetInputs::load_network`]):
/// loads `path` into `G`'s slot, or empties it for `None`; returns the line saying what is in
/// use.
///
/// Errors: [`load`]'s; the slot is then unchanged.
pub fn set_eval_file<G: NetInputs>(path: Option<&std::path::Path>) -> Result<String, String> {
    let none = || format!("{}: hand-written evaluation, no network", G::INFO.name);
    match path {
        None => {
            G::slot().set(None);
            Ok(none())
        }
        Some(path) if path == std::path::Path::new(DEFAULT_FILE) => {
            match G::slot().default_net().and_then(|d| d.network()) {
                Some(net) => {
                    G::slot().set(Some(net));
                    Ok(format!(
                        "{}: network {DEFAULT_FILE} (compiled in, {} inputs, width {HIDDEN})",
                        G::INFO.name,
                        G::INPUTS
                    ))
                }
                None => {
                    G::slot().set(None);
                    Ok(none())
                }
            }
        }
        Some(path) => {
            load::<G>(path)?;
            Ok(format!(
                "{}: network {} ({} inputs, width {HIDDEN})",
                G::INFO.name,
                path.display(),
                G::INPUTS
            ))
        }
    }
}

/// Reads a network file for `G` and puts it in `G`'s slot.
///
/// Errors: the file cannot be read, or [`Network::parse`] refuses it, as a message naming the
/// file; the slot is then unchanged.
pub fn load<G: NetInputs>(path: &std::path::Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let net = Network::parse(&bytes, G::INFO.name, G::INPUTS)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    G::slot().set(Some(net));
    Ok(())
}

/// Test support: plays `games` random games of at most `plies` plies from `start(game)`, with
/// a ply made and taken back unevaluated before each ply kept (as a pruned move is) and a null
/// move every `null_every` plies where allowed, then takes every ply back. At each position it
/// asserts that the inputs make recorded in the position's accumulator, from those of
/// the start, are the position's inputs less the volatile ones, in both views; and, when the
/// slot holds a network, that the residual read from the kept sums is the residual from
/// scratch. `tally` sees each kept ply before it is made (to count the kinds of ply the games
/// covered). Seeds: `seed + game`.
#[cfg(test)]
pub(crate) fn assert_kept_sums_match<G: crate::variants::Game>(
    games: u64,
    plies: usize,
    seed: u64,
    null_every: usize,
    start: impl Fn(u64) -> G,
    mut tally: impl FnMut(&G, G::Move),
) {
    use crate::variants::playout::{Next, Playout};
    use crate::variants::Scope;
    // The inputs of `pos` in `view` that make records (the volatile ones left out), sorted.
    let kept_inputs = |pos: &G, view: Color| {
        let mut list = InputList::new();
        pos.inputs(view, &mut list);
        let mut kept = list.to_vec();
        for v in pos.volatile_inputs() {
            let at = kept.iter().position(|&i| i == v[view.index()]);
            kept.swap_remove(at.expect("a volatile input is among the inputs"));
        }
        kept.sort_unstable();
        kept
    };
    for game in 0..games {
        let mut playout = Playout::new(seed + game, plies);
        let mut pos = start(game);
        let root = Color::ALL.map(|view| kept_inputs(&pos, view));
        let check = |pos: &G| {
            for view in Color::ALL {
                assert_eq!(
                    pos.accumulator().recorded_inputs(&root[view.index()], view),
                    kept_inputs(pos, view),
                    "{view:?}'s view of {}",
                    pos.fen()
                );
            }
            if let Some(net) = G::slot().get() {
                assert_eq!(residual(pos), net.evaluate(pos), "{}", pos.fen());
            }
        };
        let made = playout.run(&mut pos, |pos, at| {
            if at.ply > 0 && at.ply % null_every == 0 && pos.make_null() {
                check(pos);
                pos.unmake();
            }
            check(pos);
            if at.at_end || pos.verdict(Scope::Game).is_some() {
                return Next::Stop;
            }
            let list = at.legal;
            pos.make(list[at.rng.below(list.len() as u64) as usize]);
            pos.unmake();
            let m = list[at.rng.below(list.len() as u64) as usize];
            tally(pos, m);
            Next::Play(m)
        });
        for _ in 0..made {
            pos.unmake();
            check(&pos);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::mystic::Mystic;
    use crate::variants::{Notation, Rules};

    /// A network whose hidden unit `j` weighs input `i` by `(i * 7 + j) % 11 - 5` (times 8),
    /// with output weights `j - 16` and `16 - j` (the other half).
    fn sample_net() -> Network {
        let mut w1 = vec![[0i16; HIDDEN]; Mystic::INPUTS];
        for (i, row) in w1.iter_mut().enumerate() {
            for (j, w) in row.iter_mut().enumerate() {
                *w = (((i * 7 + j) % 11) as i16 - 5) * 8;
            }
        }
        let mut w2 = [0i16; 2 * HIDDEN];
        for j in 0..HIDDEN {
            w2[j] = j as i16 - 16;
            w2[HIDDEN + j] = 16 - j as i16;
        }
        Network {
            variant: "mystic".into(),
            w1,
            b1: [40; HIDDEN],
            w2,
            b2: 1000,
            out_scale: 400,
        }
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let net = sample_net();
        let bytes = net.to_bytes();
        assert_eq!(
            Network::parse(&bytes, "mystic", Mystic::INPUTS).unwrap(),
            net
        );
        assert_eq!(
            Network::parse(&bytes, "muster", Mystic::INPUTS),
            Err(NetError::Variant("mystic".into(), "muster".into()))
        );
        assert!(matches!(
            Network::parse(&bytes, "mystic", 768),
            Err(NetError::Shape(..))
        ));
        assert!(matches!(
            Network::parse(&bytes[..bytes.len() - 1], "mystic", Mystic::INPUTS),
            Err(NetError::Size(..))
        ));
        assert_eq!(Network::parse(b"MNN1", "mystic", 1), Err(NetError::Magic));
        assert_eq!(Network::parse(b"", "mystic", 1), Err(NetError::Magic));
    }

    #[test]
    fn the_output_is_the_layers_sum() {
        let net = sample_net();
        let pos =
            Mystic::from_fen("4k3/8/8/3q4/8/8/2P5/4K3 b - - 7 30 coins:11/6 bought:1/0").unwrap();
        // By hand, in floating point: both perspectives' layers, clipped, dotted.
        let layer = |persp: Color| {
            let mut list = InputList::new();
            pos.inputs(persp, &mut list);
            assert!(list.iter().all(|&i| (i as usize) < Mystic::INPUTS));
            // 4 men, the coins and bought Pawns of both sides as thermometers.
            let coins = if persp == Color::White {
                [11, 6]
            } else {
                [6, 11]
            };
            let bought = if persp == Color::White {
                [1, 0]
            } else {
                [0, 1]
            };
            assert_eq!(list.len(), 4 + coins[0] + coins[1] + bought[0] + bought[1]);
            let mut acc = [40i64; HIDDEN];
            for &i in &list {
                for (a, &w) in acc.iter_mut().zip(&net.w1[i as usize]) {
                    *a += i64::from(w);
                }
            }
            acc.map(|a| a.clamp(0, i64::from(QA)))
        };
        let stm = pos.side_to_move();
        let (us, them) = (layer(stm), layer(!stm));
        let mut sum = 1000i64;
        for j in 0..HIDDEN {
            sum += us[j] * i64::from(net.w2[j]) + them[j] * i64::from(net.w2[HIDDEN + j]);
        }
        assert_eq!(
            i64::from(net.evaluate(&pos)),
            sum * 400 / i64::from(QA * QB)
        );
        assert_ne!(net.evaluate(&pos), 0);
    }

    #[test]
    fn a_refused_file_leaves_the_slot_alone() {
        static TEST_SLOT: NetSlot = NetSlot::new();
        assert!(TEST_SLOT.get().is_none());
        TEST_SLOT.set(Some(sample_net()));
        assert_eq!(TEST_SLOT.get().unwrap().out_scale, 400);
        // The variant's own slot: a bad file is refused with one message naming it.
        let dir = std::env::temp_dir().join(format!("menagerie-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.nnv");
        std::fs::write(&bad, b"MNV1\x05chess").unwrap();
        let before = Mystic::slot().get().map(|n| n as *const Network);
        let e = load::<Mystic>(&bad).unwrap_err();
        assert!(e.contains("bad.nnv") && e.contains("'chess'"), "{e}");
        assert_eq!(Mystic::slot().get().map(|n| n as *const Network), before);
        TEST_SLOT.set(None);
        assert!(TEST_SLOT.get().is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
