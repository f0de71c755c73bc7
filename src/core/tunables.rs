//! One way to declare tunable parameters, for every evaluator and for the search.
//!
//! A parameter set is declared once with [`tunables!`](crate::tunables): per item a name, a
//! type, a default, a range and a step (or `nested` for an item that is itself a parameter
//! set), and its `///` doc. The macro generates the struct, the default constant, the item
//! names ([`Tunables::NAMES`]), the flat by-name view (every scalar has a name: `tempo.mg`,
//! `state_value[3]`, `psqt[1][27].eg`, `board.material[4].mg`), get/set by name, ranges and
//! steps ([`Tunables::spec`]), and the Rust source of any value of the set
//! ([`Tunables::declaration`]) so that tuned values can replace the declared defaults.
//!
//! ```ignore
//! tunables! {
//!     /// The evaluator's parameters.
//!     #[derive(Copy)]
//!     pub struct MyParams, default MY_PARAMS {
//!         /// Value of a coin (centipawns).
//!         coin: i32 = 70, (0, 300, 5);
//!         /// Worth of each state (centipawns).
//!         state_value: [i32; 4] = [100, 300, 500, 900], (0, 2000, 10);
//!     }
//! }
//! ```
//!
//! The engine reads the fields directly (no lookup, no allocation); the by-name view is for
//! tuners, the `spsa` options and tests.

use std::fmt::Write as _;

/// The range and step of one tunable scalar, in the parameter's own units (centipawns, plies,
/// permille, ...): tuners keep the value within `[min, max]` and move it by about `step`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Smallest sensible value.
    pub min: i64,
    /// Largest sensible value.
    pub max: i64,
    /// A typical change (SPSA's perturbation, a local search's move).
    pub step: i64,
}

impl Spec {
    /// A spec from its bounds and step.
    pub const fn new(min: i64, max: i64, step: i64) -> Spec {
        Spec { min, max, step }
    }

    /// What an item declared `nested` passes down (its own items carry their specs).
    pub const UNBOUNDED: Spec = Spec::new(i64::MIN, i64::MAX, 1);

    /// `v` brought into `[min, max]`.
    pub fn clamp(&self, v: i64) -> i64 {
        v.clamp(self.min, self.max)
    }
}

/// A value made of tunable integer scalars: an integer, a pair (a variant's own type), an
/// array of them, or a whole parameter set (a nested item). Scalars are numbered `0..LEN` in
/// declaration order.
pub trait TunableValue: Clone {
    /// Number of scalars.
    const LEN: usize;

    /// Scalar `i` (0 when `i >= LEN`).
    fn get_at(&self, i: usize) -> i64;

    /// Sets scalar `i`, saturated to its type (no effect when `i >= LEN`).
    fn set_at(&mut self, i: usize, v: i64);

    /// Appends the name suffix of scalar `i`: `""` for a plain integer, `"[3]"` in an array,
    /// `".mg"` in a pair, `".coin"` for an item of a nested set.
    fn write_suffix(i: usize, out: &mut String);

    /// The spec of scalar `i` when the item holding this value was declared with `declared`:
    /// leaves take the declared spec, nested sets their own items'.
    fn spec_at(i: usize, declared: Spec) -> Spec {
        let _ = i;
        declared
    }

    /// Appends the value as Rust source (`12`, `[1, 2]`, `s(3, 4)`, `Params { .. }`).
    fn write_rust(&self, out: &mut String);
}

macro_rules! int_tunable {
    ($($t:ty),*) => {$(
        impl TunableValue for $t {
            const LEN: usize = 1;
            #[inline]
            fn get_at(&self, i: usize) -> i64 {
                if i == 0 { *self as i64 } else { 0 }
            }
            #[inline]
            fn set_at(&mut self, i: usize, v: i64) {
                if i == 0 {
                    *self = (v as i128).clamp(<$t>::MIN as i128, <$t>::MAX as i128) as $t;
                }
            }
            fn write_suffix(_: usize, _: &mut String) {}
            fn write_rust(&self, out: &mut String) {
                let _ = write!(out, "{self}");
            }
        }
    )*};
}

int_tunable!(i8, i16, i32, i64, u8, u16, u32, u64);

impl<T: TunableValue, const N: usize> TunableValue for [T; N] {
    const LEN: usize = N * T::LEN;

    #[inline]
    fn get_at(&self, i: usize) -> i64 {
        match self.get(i / T::LEN.max(1)) {
            Some(x) => x.get_at(i % T::LEN.max(1)),
            None => 0,
        }
    }

    #[inline]
    fn set_at(&mut self, i: usize, v: i64) {
        if let Some(x) = self.get_mut(i / T::LEN.max(1)) {
            x.set_at(i % T::LEN.max(1), v);
        }
    }

    fn write_suffix(i: usize, out: &mut String) {
        let _ = write!(out, "[{}]", i / T::LEN.max(1));
        T::write_suffix(i % T::LEN.max(1), out);
    }

    fn spec_at(i: usize, declared: Spec) -> Spec {
        T::spec_at(i % T::LEN.max(1), declared)
    }

    fn write_rust(&self, out: &mut String) {
        out.push('[');
        for (k, x) in self.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            x.write_rust(out);
        }
        out.push(']');
    }
}

/// One declared item of a parameter set (a scalar, an array, a pair, a nested set).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The field name.
    pub name: &'static str,
    /// The field type as written in the declaration.
    pub ty: &'static str,
    /// The `///` doc lines, joined by newlines.
    pub doc: &'static str,
    /// Number of scalars in it.
    pub len: usize,
    /// Its declared range and step; `None` for a nested set (its own items have theirs).
    pub spec: Option<Spec>,
}

/// Why a by-name access or a value vector was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TunableError {
    /// No scalar of the set has this name.
    #[error(
        "unknown parameter '{name}' (the {set} parameters are listed by `menagerie-tuning params`)"
    )]
    Unknown {
        /// The name as given.
        name: String,
        /// The parameter set's type name.
        set: &'static str,
    },
    /// A value vector of the wrong length.
    #[error("{set}: expected {expected} values, got {got}")]
    Length {
        /// The parameter set's type name.
        set: &'static str,
        /// Number of scalars in the set.
        expected: usize,
        /// Number given.
        got: usize,
    },
}

/// A parameter set declared with [`tunables!`](crate::tunables). Everything here is generated;
/// none of it is for the engine's hot path (the engine reads the fields).
pub trait Tunables: TunableValue + std::fmt::Debug + PartialEq + Send + Sync + 'static {
    /// The type name (for messages and generated source).
    const TYPE_NAME: &'static str;

    /// The declared items, in order.
    const ITEMS: &'static [Item];

    /// The declared item names, in order (an array item is one name here).
    const NAMES: &'static [&'static str];

    /// The declared default values (a static: one fixed address).
    fn defaults() -> &'static Self;

    /// The name of every scalar, in order: `coin`, `state_value[3]`, `psqt[1][27].eg`,
    /// `board.tempo.mg`.
    fn flat_names() -> &'static [String];

    /// Number of scalars (array elements count one each).
    fn count() -> usize {
        Self::LEN
    }

    /// The range and step of scalar `i`.
    fn spec(i: usize) -> Spec {
        Self::spec_at(i, Spec::UNBOUNDED)
    }

    /// The index of the scalar called `name`.
    ///
    /// Errors: [`TunableError::Unknown`].
    fn index_of(name: &str) -> Result<usize, TunableError> {
        Self::flat_names()
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| TunableError::Unknown {
                name: name.to_string(),
                set: Self::TYPE_NAME,
            })
    }

    /// The value of the scalar called `name`, or `None` for an unknown name.
    fn get(&self, name: &str) -> Option<i64> {
        Self::index_of(name).ok().map(|i| self.get_at(i))
    }

    /// Sets the scalar called `name` to `value` (saturated to its type; tuners clamp to the
    /// [`Tunables::spec`] range themselves).
    ///
    /// Errors: [`TunableError::Unknown`] for a name no scalar has.
    fn set(&mut self, name: &str, value: i64) -> Result<(), TunableError> {
        let i = Self::index_of(name)?;
        self.set_at(i, value);
        Ok(())
    }

    /// Every scalar, in order.
    fn values(&self) -> Vec<i64> {
        (0..Self::LEN).map(|i| self.get_at(i)).collect()
    }

    /// Overwrites every scalar from `values` (in [`Tunables::values`] order).
    ///
    /// Errors: [`TunableError::Length`] when `values` has the wrong length (nothing changed).
    fn set_values(&mut self, values: &[i64]) -> Result<(), TunableError> {
        if values.len() != Self::LEN {
            return Err(TunableError::Length {
                set: Self::TYPE_NAME,
                expected: Self::LEN,
                got: values.len(),
            });
        }
        for (i, &v) in values.iter().enumerate() {
            self.set_at(i, v);
        }
        Ok(())
    }

    /// The item list of the declaration with this set's values as the defaults: the text
    /// between the braces of the `tunables!` invocation, so tuned values replace the declared
    /// ones by pasting it there.
    fn declaration(&self) -> String;
}

/// Declares a parameter set: see the [module documentation](crate::core::tunables).
///
/// Each item is `/// doc` lines, then `name: Type = default, (min, max, step);` or
/// `name: Type = default, nested;` for an item that is itself a parameter set. `Type` is an
/// integer type, an array of tunable values, or any [`TunableValue`] type.
#[macro_export]
macro_rules! tunables {
    (
        $(#[$meta:meta])*
        $vis:vis struct $Name:ident, default $DEFAULT:ident {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty = $default:expr, $spec:tt ;
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        $vis struct $Name {
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        #[doc = concat!("The declared default values of [`", stringify!($Name), "`].")]
        $vis const $DEFAULT: $Name = $Name { $( $field: $default, )* };

        #[allow(unused_variables, unused_mut, unused_assignments)]
        impl $crate::core::tunables::TunableValue for $Name {
            const LEN: usize = 0 $( + <$ty as $crate::core::tunables::TunableValue>::LEN )*;

            fn get_at(&self, mut i: usize) -> i64 {
                $(
                    let n = <$ty as $crate::core::tunables::TunableValue>::LEN;
                    if i < n {
                        return $crate::core::tunables::TunableValue::get_at(&self.$field, i);
                    }
                    i -= n;
                )*
                0
            }

            fn set_at(&mut self, mut i: usize, v: i64) {
                $(
                    let n = <$ty as $crate::core::tunables::TunableValue>::LEN;
                    if i < n {
                        return $crate::core::tunables::TunableValue::set_at(&mut self.$field, i, v);
                    }
                    i -= n;
                )*
            }

            fn write_suffix(mut i: usize, out: &mut String) {
                $(
                    let n = <$ty as $crate::core::tunables::TunableValue>::LEN;
                    if i < n {
                        out.push('.');
                        out.push_str(stringify!($field));
                        return <$ty as $crate::core::tunables::TunableValue>::write_suffix(i, out);
                    }
                    i -= n;
                )*
            }

            fn spec_at(mut i: usize, _: $crate::core::tunables::Spec) -> $crate::core::tunables::Spec {
                $(
                    let n = <$ty as $crate::core::tunables::TunableValue>::LEN;
                    if i < n {
                        let declared = $crate::__tunable_spec!($spec)
                            .unwrap_or($crate::core::tunables::Spec::UNBOUNDED);
                        return <$ty as $crate::core::tunables::TunableValue>::spec_at(i, declared);
                    }
                    i -= n;
                )*
                $crate::core::tunables::Spec::UNBOUNDED
            }

            fn write_rust(&self, out: &mut String) {
                out.push_str(concat!(stringify!($Name), " {"));
                $(
                    out.push_str(concat!(" ", stringify!($field), ": "));
                    $crate::core::tunables::TunableValue::write_rust(&self.$field, out);
                    out.push(',');
                )*
                out.push_str(" }");
            }
        }

        #[allow(unused_variables, unused_mut, unused_assignments)]
        impl $crate::core::tunables::Tunables for $Name {
            const TYPE_NAME: &'static str = stringify!($Name);

            const ITEMS: &'static [$crate::core::tunables::Item] = &[
                $( $crate::core::tunables::Item {
                    name: stringify!($field),
                    ty: stringify!($ty),
                    doc: concat!($($doc, "\n",)* ""),
                    len: <$ty as $crate::core::tunables::TunableValue>::LEN,
                    spec: $crate::__tunable_spec!($spec),
                }, )*
            ];

            const NAMES: &'static [&'static str] = &[ $( stringify!($field), )* ];

            fn defaults() -> &'static Self {
                static DEFAULTS: $Name = $DEFAULT;
                &DEFAULTS
            }

            fn flat_names() -> &'static [String] {
                static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
                NAMES.get_or_init(|| {
                    (0..<Self as $crate::core::tunables::TunableValue>::LEN)
                        .map(|i| {
                            let mut s = String::new();
                            <Self as $crate::core::tunables::TunableValue>::write_suffix(i, &mut s);
                            s.split_off(1)
                        })
                        .collect()
                })
            }

            fn declaration(&self) -> String {
                let mut out = String::new();
                $(
                    for line in concat!($($doc, "\n",)* "").lines() {
                        out.push_str("///");
                        out.push_str(line);
                        out.push('\n');
                    }
                    out.push_str(concat!(stringify!($field), ": ", stringify!($ty), " = "));
                    $crate::core::tunables::TunableValue::write_rust(&self.$field, &mut out);
                    out.push_str(concat!(", ", stringify!($spec), ";\n"));
                )*
                out
            }
        }
    };
}

/// The spec of an item: `(min, max, step)` or `nested` (used by [`tunables!`](crate::tunables)).
#[doc(hidden)]
#[macro_export]
macro_rules! __tunable_spec {
    (nested) => {
        None::<$crate::core::tunables::Spec>
    };
    (($min:expr, $max:expr, $step:expr)) => {
        Some($crate::core::tunables::Spec::new($min, $max, $step))
    };
}

crate::tunables! {
    /// The empty parameter set: a variant (or a test game) whose evaluator declares none.
    #[derive(Copy, Default)]
    pub struct NoParams, default NO_PARAMS {}
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::tunables! {
        /// A set for the tests.
        #[derive(Copy)]
        pub struct Inner, default INNER {
            /// A scalar.
            x: i32 = 5, (0, 10, 1);
            /// A pair of pairs.
            grid: [[i16; 2]; 2] = [[1, 2], [3, 4]], (-100, 100, 2);
        }
    }

    crate::tunables! {
        /// An outer set with a nested one.
        pub struct Outer, default OUTER {
            /// Milliseconds.
            time: u64 = 30, (1, 100, 5);
            /// The inner set.
            inner: Inner = INNER, nested;
            /// A list.
            list: [i32; 3] = [7, 8, 9], (0, 50, 3);
        }
    }

    #[test]
    fn names_ranges_and_values_round_trip() {
        assert_eq!(Outer::NAMES, &["time", "inner", "list"]);
        assert_eq!(Outer::count(), 1 + 5 + 3);
        let names = Outer::flat_names();
        assert_eq!(
            names,
            &[
                "time",
                "inner.x",
                "inner.grid[0][0]",
                "inner.grid[0][1]",
                "inner.grid[1][0]",
                "inner.grid[1][1]",
                "list[0]",
                "list[1]",
                "list[2]",
            ]
        );
        assert_eq!(Outer::spec(0), Spec::new(1, 100, 5));
        assert_eq!(Outer::spec(1), Spec::new(0, 10, 1));
        assert_eq!(Outer::spec(4), Spec::new(-100, 100, 2));
        assert_eq!(Outer::spec(8), Spec::new(0, 50, 3));
        assert_eq!(Outer::ITEMS[1].spec, None);
        assert_eq!(Outer::ITEMS[2].len, 3);
        assert_eq!(Outer::ITEMS[0].doc.trim(), "Milliseconds.");

        let mut p = OUTER.clone();
        assert_eq!(p.values(), vec![30, 5, 1, 2, 3, 4, 7, 8, 9]);
        for (i, n) in names.iter().enumerate() {
            assert_eq!(p.get(n), Some(p.get_at(i)), "{n}");
            p.set(n, 100 + i as i64).unwrap();
        }
        assert_eq!(p.inner.grid[1][0], 104);
        assert_eq!(p.list[2], 108);
        let v = p.values();
        let mut q = OUTER.clone();
        q.set_values(&v).unwrap();
        assert_eq!(p, q);
        assert_eq!(Outer::defaults(), &OUTER);
    }

    #[test]
    fn bad_names_and_lengths_are_errors() {
        let mut p = OUTER.clone();
        let e = p.set("nope", 1).unwrap_err();
        assert!(e.to_string().contains("unknown parameter 'nope'"), "{e}");
        assert_eq!(p.get("list[3]"), None);
        let e = p.set_values(&[1, 2]).unwrap_err();
        assert_eq!(e.to_string(), "Outer: expected 9 values, got 2");
        assert_eq!(p, OUTER);
        // Saturated to the type.
        p.set("time", -5).unwrap();
        assert_eq!(p.time, 0);
        p.set("inner.grid[0][0]", 1 << 40).unwrap();
        assert_eq!(p.inner.grid[0][0], i16::MAX);
    }

    #[test]
    fn declaration_reproduces_the_items() {
        let mut p = OUTER.clone();
        p.list[1] = 11;
        let d = p.declaration();
        assert!(
            d.contains("/// Milliseconds.\ntime: u64 = 30, (1, 100, 5);\n"),
            "{d}"
        );
        assert!(
            d.contains("inner: Inner = Inner { x: 5, grid: [[1, 2], [3, 4]], }, nested;"),
            "{d}"
        );
        assert!(
            d.contains("list: [i32; 3] = [7, 11, 9], (0, 50, 3);"),
            "{d}"
        );
        assert_eq!(NoParams::count(), 0);
        assert!(NoParams::flat_names().is_empty());
    }
}
