//! What every drawing is made with: the id's stream of small numbers, and a few shapes (plates,
//! bowls, garnish) that many dishes share. Writes SVG straight into the reply's string; nothing
//! here allocates.

/// Writes formatted SVG into a `String`. Writing to a `String` cannot fail, so the result is
/// dropped here once rather than at every call.
macro_rules! put {
    ($svg:expr, $($arg:tt)*) => {{
        let _ = ::std::fmt::Write::write_fmt($svg, format_args!($($arg)*));
    }};
}
pub(super) use put;

/// FNV-1a: stable across builds and platforms (unlike std's hasher), which the year-long cache needs.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A stream of small numbers drawn from the id's hash: every choice a picture makes (colours,
/// counts, positions) comes from here, so the same id always draws the same picture.
pub(super) struct Draws(u64);

impl Draws {
    pub(super) fn of(id: &str) -> Draws {
        Draws(fnv1a(id) | 1)
    }

    pub(super) fn next(&mut self, below: u64) -> u64 {
        // xorshift64*: enough spread for picking colours and positions.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % below.max(1)
    }

    /// A whole number in `lo..=hi`.
    pub(super) fn int(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.next((hi - lo + 1).max(1) as u64) as i32
    }

    pub(super) fn chance(&mut self, in_ten: u64) -> bool {
        self.next(10) < in_ten
    }

    pub(super) fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[self.next(from.len() as u64) as usize]
    }
}

pub(super) const SHADOW: &str = "#000";
pub(super) const WHITE: &str = "#fffdf8";
pub(super) const STEEL: &str = "#cfd4d8";
pub(super) const STEEL_DARK: &str = "#a9b0b6";
pub(super) const HERB: &[&str] = &["#3f8f3a", "#2f7d32", "#4caf50", "#5a9e2f"];

/// A soft shadow on the table under something `rx` wide.
pub(super) fn shadow(svg: &mut String, cx: i32, cy: i32, rx: i32, ry: i32) {
    put!(
        svg,
        r##"<ellipse cx="{cx}" cy="{cy}" rx="{rx}" ry="{ry}" fill="{SHADOW}" opacity=".16"/>"##
    );
}

/// A round plate seen from above, its rim in `rim` and its well in `well`.
pub(super) fn plate(svg: &mut String, cx: i32, cy: i32, r: i32, rim: &str, well: &str) {
    shadow(svg, cx + 6, cy + 10, r, r - 4);
    put!(
        svg,
        r##"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{rim}"/><circle cx="{cx}" cy="{cy}" r="{}" fill="{well}"/>"##,
        r * 4 / 5
    );
}

/// A plate in one of a few looks: white china, steel, or a banana leaf under a steel plate.
pub(super) fn any_plate(svg: &mut String, d: &mut Draws, cx: i32, cy: i32, r: i32) {
    match d.next(3) {
        0 => plate(svg, cx, cy, r, STEEL, "#e3e7ea"),
        1 => {
            leaf(svg, cx, cy, r + 40, r + 8);
            plate(svg, cx, cy, r - 8, STEEL, "#e3e7ea");
        }
        _ => plate(svg, cx, cy, r, WHITE, "#f1ebe0"),
    }
}

/// A banana leaf under a meal, with its midrib.
pub(super) fn leaf(svg: &mut String, cx: i32, cy: i32, rx: i32, ry: i32) {
    put!(
        svg,
        r##"<path d="M{} {cy}Q{cx} {} {} {cy}Q{cx} {} {} {cy}z" fill="#3d8b37"/><path d="M{} {cy}H{}" stroke="#7cc36b" stroke-width="4"/>"##,
        cx - rx,
        cy - ry * 2,
        cx + rx,
        cy + ry * 2,
        cx - rx,
        cx - rx + 10,
        cx + rx - 10
    );
}

/// A round bowl seen from above, filled with `food`.
pub(super) fn bowl(svg: &mut String, cx: i32, cy: i32, r: i32, outside: &str, food: &str) {
    shadow(svg, cx + 5, cy + 9, r, r - 3);
    put!(
        svg,
        r##"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{outside}"/><circle cx="{cx}" cy="{cy}" r="{}" fill="{food}"/><circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="#fff" stroke-opacity=".35" stroke-width="3"/>"##,
        r * 86 / 100,
        r * 70 / 100
    );
}

/// `n` small round bits (spice, peas, pomegranate) scattered over an ellipse.
#[allow(clippy::too_many_arguments)]
pub(super) fn dots(
    svg: &mut String,
    d: &mut Draws,
    cx: i32,
    cy: i32,
    rx: i32,
    ry: i32,
    n: u64,
    r: i32,
    colours: &[&str],
) {
    for _ in 0..n {
        let (x, y) = (cx + d.int(-rx, rx), cy + d.int(-ry, ry));
        let colour = d.pick(colours);
        put!(
            svg,
            r##"<circle cx="{x}" cy="{y}" r="{r}" fill="{colour}"/>"##
        );
    }
}

/// `n` small leaves (coriander, mint) scattered over an ellipse.
pub(super) fn leaves(svg: &mut String, d: &mut Draws, cx: i32, cy: i32, rx: i32, ry: i32, n: u64) {
    for _ in 0..n {
        let (x, y) = (cx + d.int(-rx, rx), cy + d.int(-ry, ry));
        let (turn, colour) = (d.next(180), d.pick(HERB));
        put!(
            svg,
            r##"<ellipse cx="{x}" cy="{y}" rx="8" ry="4" transform="rotate({turn} {x} {y})" fill="{colour}"/>"##
        );
    }
}

/// Wisps of steam rising from `y`.
pub(super) fn steam(svg: &mut String, xs: &[i32], y: i32) {
    for x in xs {
        put!(
            svg,
            r##"<path d="M{x} {y}c-10-12 10-22 0-36" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round" opacity=".6"/>"##
        );
    }
}

/// A lemon wedge.
pub(super) fn lemon(svg: &mut String, x: i32, y: i32) {
    put!(
        svg,
        r##"<path d="M{x} {y}a22 22 0 0 0 44 0z" fill="#f4d03f"/><path d="M{} {y}a18 18 0 0 0 36 0z" fill="#fbe88a"/>"##,
        x + 4
    );
}
