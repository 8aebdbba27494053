//! An order's tax invoice, as a PDF the customer can keep, print and search.
//!
//! It owns how an invoice reads and looks: what it states (the order, the restaurant that sold
//! it, where it went, the items, the bill line by line with its GST, the total and how it was
//! paid), how money and dates are written on it, and how a long order flows over pages. It takes
//! an [`Order`] exactly as this service stores it and decides nothing about which orders may have
//! an invoice: that stays with the caller.
//!
//! It must never read anything at run time: its fonts are compiled in, so every replica renders
//! the same bytes wherever it runs. It never does arithmetic on money in floating point: amounts
//! stay integer paise until they are written out as text.
//!
//! The work is in two steps. `layout` places shaped text and rules on pages (pure geometry,
//! tested on its own); `paint` hands those to krilla, which writes the PDF with the fonts
//! embedded as subsets and a Unicode map, so the text is real, selectable text.

use std::ops::Range;

use krilla::Document;
use krilla::color::luma;
use krilla::geom::{PathBuilder, Point};
use krilla::metadata::Metadata;
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, Stroke};
use krilla::text::{Font, GlyphId, KrillaGlyph};
use tiffin_proto::orders::v1::{Order, OrderAddress};

use format::{gstin_placeholder, ist, payment_method, pdf_date};
use tiffin_platform::money::rupees_in_full;

mod format;

/// DejaVu Sans (licence in `assets/fonts/LICENSE`): it has the rupee sign, which many fonts lack,
/// and Latin, Greek and Cyrillic for restaurants' and dishes' names.
static REGULAR_FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");
/// DejaVu Sans Bold, for the title, headings and the total.
static BOLD_FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans-Bold.ttf");

/// Why an invoice could not be made. Each is this service's fault, never the caller's.
#[derive(Debug, thiserror::Error)]
pub enum InvoiceError {
    /// The bill's lines do not add up to the order's total. An invoice stating both would
    /// contradict itself, so none is made; it means the stored order is wrong.
    #[error("the bill's lines add up to {lines} paise but the order's total is {total} paise")]
    BillDoesNotAddUp { lines: i128, total: i64 },
    /// A font compiled into the service could not be read: a broken build, not a bad order.
    #[error("the bundled font {0} cannot be read")]
    Font(&'static str),
    /// The PDF writer refused the document. Kept as text so krilla's types stay out of this
    /// crate's public API.
    #[error("writing the PDF: {0}")]
    Pdf(String),
}

/// The order's tax invoice as PDF bytes, dated `issued_at_unix` (Unix seconds). Dates on it are
/// India Standard Time. The same order and date always give the same bytes.
pub fn render(order: &Order, issued_at_unix: i64) -> Result<Vec<u8>, InvoiceError> {
    let fonts = Fonts::load()?;
    let pages = layout(&fonts, order, issued_at_unix)?;
    paint(&fonts, order, issued_at_unix, pages)
}

// --- Page geometry, in PDF points (1/72 inch) from the top left corner of an A4 page. ---

const PAGE_WIDTH: f32 = 595.28;
const PAGE_HEIGHT: f32 = 841.89;
const LEFT: f32 = 42.0;
const RIGHT: f32 = PAGE_WIDTH - 42.0;
const TOP: f32 = 48.0;
/// Nothing but the footer goes below this line.
const BOTTOM: f32 = PAGE_HEIGHT - 64.0;
/// The baseline of the footer ("Page 2 of 3").
const FOOTER_BASELINE: f32 = PAGE_HEIGHT - 36.0;

/// The items table: the item column's width, and the right edges the numbers align on.
const ITEM_WIDTH: f32 = 290.0;
const QTY_RIGHT: f32 = 372.0;
const UNIT_PRICE_RIGHT: f32 = 462.0;
const AMOUNT_RIGHT: f32 = RIGHT;
/// The bill sits under the prices: labels from here, wrapped short of the amount column.
const BILL_LABEL_LEFT: f32 = 262.0;
const BILL_LABEL_WIDTH: f32 = AMOUNT_RIGHT - 95.0 - BILL_LABEL_LEFT;

/// How text is set: face, size and grey level (0 is black).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Style {
    bold: bool,
    size: f32,
    gray: u8,
}

const TITLE: Style = Style {
    bold: true,
    size: 20.0,
    gray: 0,
};
const HEADING: Style = Style {
    bold: true,
    size: 9.5,
    gray: 70,
};
const BODY: Style = Style {
    bold: false,
    size: 10.0,
    gray: 0,
};
const STRONG: Style = Style {
    bold: true,
    size: 10.5,
    gray: 0,
};
const SMALL: Style = Style {
    bold: false,
    size: 8.5,
    gray: 90,
};
const TOTAL: Style = Style {
    bold: true,
    size: 12.5,
    gray: 0,
};

impl Style {
    /// The height of one line of this text, with its leading.
    fn line_height(self) -> f32 {
        self.size * 1.45
    }
}

// --- Fonts and shaping. ---

/// One typeface, for the two jobs it does: krilla embeds and draws it, rustybuzz measures it.
struct Face {
    pdf: Font,
    shaper: rustybuzz::Face<'static>,
}

impl Face {
    fn load(name: &'static str, data: &'static [u8]) -> Result<Self, InvoiceError> {
        Ok(Self {
            pdf: Font::new(data.into(), 0).ok_or(InvoiceError::Font(name))?,
            shaper: rustybuzz::Face::from_slice(data, 0).ok_or(InvoiceError::Font(name))?,
        })
    }
}

struct Fonts {
    regular: Face,
    bold: Face,
}

impl Fonts {
    fn load() -> Result<Self, InvoiceError> {
        Ok(Self {
            regular: Face::load("DejaVuSans.ttf", REGULAR_FONT)?,
            bold: Face::load("DejaVuSans-Bold.ttf", BOLD_FONT)?,
        })
    }

    fn face(&self, style: Style) -> &Face {
        if style.bold {
            &self.bold
        } else {
            &self.regular
        }
    }

    /// `text` shaped in `style`: the glyphs krilla draws and their width. Shaping once for both
    /// means what is measured (for wrapping and right alignment) is exactly what is drawn.
    fn shape(&self, style: Style, text: &str) -> Run {
        let face = &self.face(style).shaper;
        let mut buffer = rustybuzz::UnicodeBuffer::new();
        buffer.push_str(text);
        buffer.guess_segment_properties();
        // The invoice is laid out left to right, and every cluster range below assumes it.
        buffer.set_direction(rustybuzz::Direction::LeftToRight);
        let shaped = rustybuzz::shape(face, &[], buffer);
        let units_per_em = face.units_per_em() as f32;
        let infos = shaped.glyph_infos();
        let mut glyphs = Vec::with_capacity(infos.len());
        let mut width_em = 0.0;
        for (i, (info, position)) in infos.iter().zip(shaped.glyph_positions()).enumerate() {
            let start = info.cluster as usize;
            // The glyph stands for the text up to the next cluster: that is what a reader gets
            // back when they select or copy it.
            let end = infos[i + 1..]
                .iter()
                .map(|next| next.cluster as usize)
                .find(|&next| next > start)
                .unwrap_or(text.len());
            let advance = position.x_advance as f32 / units_per_em;
            width_em += advance;
            glyphs.push(KrillaGlyph::new(
                GlyphId::new(info.glyph_id),
                advance,
                position.x_offset as f32 / units_per_em,
                position.y_offset as f32 / units_per_em,
                position.y_advance as f32 / units_per_em,
                Range { start, end },
                None,
            ));
        }
        Run {
            text: text.to_owned(),
            glyphs,
            style,
            width: width_em * style.size,
        }
    }

    /// `text` broken into lines no wider than `width`, at spaces where it can be and between
    /// characters where a single word is wider than the line. Always at least one line.
    fn wrap(&self, style: Style, text: &str, width: f32) -> Vec<Run> {
        let fits = |candidate: &str| self.shape(style, candidate).width <= width;
        let mut lines = Vec::new();
        let mut current = String::new();
        for word in text.split_whitespace() {
            let joined = if current.is_empty() {
                word.to_owned()
            } else {
                format!("{current} {word}")
            };
            if fits(&joined) {
                current = joined;
                continue;
            }
            if !current.is_empty() {
                lines.push(std::mem::take(&mut current));
            }
            if fits(word) {
                current = word.to_owned();
                continue;
            }
            for c in word.chars() {
                current.push(c);
                if current.chars().count() > 1 && !fits(&current) {
                    current.pop();
                    lines.push(std::mem::replace(&mut current, c.to_string()));
                }
            }
        }
        if !current.is_empty() || lines.is_empty() {
            lines.push(current);
        }
        lines
            .into_iter()
            .map(|line| self.shape(style, &line))
            .collect()
    }
}

/// Shaped text, ready to draw.
#[derive(Debug, Clone)]
struct Run {
    text: String,
    glyphs: Vec<KrillaGlyph>,
    style: Style,
    /// In points.
    width: f32,
}

// --- Layout: lines placed on pages. ---

/// Something drawn on a page, at absolute page coordinates.
#[derive(Debug, Clone)]
enum Mark {
    /// Text whose left end is at `x` and whose baseline is at `baseline`.
    Text { x: f32, baseline: f32, run: Run },
    /// A thin horizontal rule.
    Rule { x0: f32, x1: f32, y: f32 },
}

/// A horizontal strip of the page: the unit that is kept whole and moved to the next page.
/// Its marks are placed relative to its top.
#[derive(Debug, Clone)]
struct Line {
    height: f32,
    marks: Vec<Mark>,
}

impl Line {
    fn space(height: f32) -> Self {
        Self {
            height,
            marks: Vec::new(),
        }
    }

    /// A line tall enough for `style`, with nothing on it yet.
    fn of(style: Style) -> Self {
        Self::space(style.line_height())
    }

    /// The baseline for text in a line of this height: about three quarters down, which sits
    /// DejaVu's capitals and descenders evenly in it.
    fn baseline(&self) -> f32 {
        self.height * 0.75
    }

    /// `run` with its left end at `x`.
    fn left(mut self, x: f32, run: Run) -> Self {
        let baseline = self.baseline();
        self.marks.push(Mark::Text { x, baseline, run });
        self
    }

    /// `run` with its right end at `x`, as numbers in a column are.
    fn right(self, x: f32, run: Run) -> Self {
        let left = x - run.width;
        self.left(left, run)
    }

    /// A rule across the content width, through the middle of the line.
    fn rule(height: f32) -> Self {
        Self {
            height,
            marks: vec![Mark::Rule {
                x0: LEFT,
                x1: RIGHT,
                y: height / 2.0,
            }],
        }
    }

    fn moved_down(self, by: f32) -> Vec<Mark> {
        self.marks
            .into_iter()
            .map(|mark| match mark {
                Mark::Text { x, baseline, run } => Mark::Text {
                    x,
                    baseline: baseline + by,
                    run,
                },
                Mark::Rule { x0, x1, y } => Mark::Rule { x0, x1, y: y + by },
            })
            .collect()
    }
}

/// Lines placed top to bottom, starting a new page whenever the next would cross [`BOTTOM`].
struct Pages<'f> {
    fonts: &'f Fonts,
    pages: Vec<Vec<Mark>>,
    /// Where the next line's top goes on the last page.
    y: f32,
    /// Whether the last page has only its repeated header so far: a block that does not fit on
    /// such a page will not fit on any, and is split line by line instead of moved on.
    fresh: bool,
    /// Says which invoice a further page belongs to.
    continued: Line,
    /// The items table's header while the table is open, repeated on each page it runs onto.
    table_header: Option<Vec<Line>>,
}

impl<'f> Pages<'f> {
    fn new(fonts: &'f Fonts, order_id: u64) -> Self {
        let continued = Line::of(SMALL).left(
            LEFT,
            fonts.shape(
                SMALL,
                &format!("Tax Invoice · Order ID: {order_id} (continued)"),
            ),
        );
        Self {
            fonts,
            pages: vec![Vec::new()],
            y: TOP,
            fresh: true,
            continued,
            table_header: None,
        }
    }

    fn new_page(&mut self) {
        self.pages.push(Vec::new());
        self.y = TOP;
        self.put(self.continued.clone());
        self.put(Line::space(6.0));
        if let Some(header) = self.table_header.clone() {
            for line in header {
                self.put(line);
            }
        }
        self.fresh = true;
    }

    fn put(&mut self, line: Line) {
        let height = line.height;
        let marks = line.moved_down(self.y);
        self.pages
            .last_mut()
            .expect("there is always a page")
            .extend(marks);
        self.y += height;
    }

    /// Places `block` on this page if it fits, else starts it on the next one. A block taller
    /// than a whole page is split between lines rather than run off the bottom.
    fn place(&mut self, block: Vec<Line>) {
        let height: f32 = block.iter().map(|line| line.height).sum();
        if self.y + height > BOTTOM && !self.fresh {
            self.new_page();
        }
        for line in block {
            if self.y + line.height > BOTTOM {
                self.new_page();
            }
            self.put(line);
        }
        self.fresh = false;
    }

    /// Vertical space; dropped at the foot of a page, where it would only push the next block
    /// over for nothing.
    fn gap(&mut self, height: f32) {
        if self.y + height <= BOTTOM {
            self.y += height;
        }
    }

    /// "Page 2 of 3" at the foot of every page, now that the number of pages is known.
    fn finish(mut self, order_id: u64) -> Vec<Vec<Mark>> {
        let count = self.pages.len();
        for (index, marks) in self.pages.iter_mut().enumerate() {
            let note = self.fonts.shape(
                SMALL,
                &format!("Order ID: {order_id} · Page {} of {count}", index + 1),
            );
            let x = RIGHT - note.width;
            marks.push(Mark::Text {
                x,
                baseline: FOOTER_BASELINE,
                run: note,
            });
        }
        self.pages
    }
}

/// The invoice laid out: for each page, what is drawn on it.
fn layout(
    fonts: &Fonts,
    order: &Order,
    issued_at_unix: i64,
) -> Result<Vec<Vec<Mark>>, InvoiceError> {
    let lines_total: i128 = order
        .charges
        .iter()
        .map(|charge| i128::from(charge.amount_paise))
        .sum();
    if lines_total != i128::from(order.order_total_paise) {
        return Err(InvoiceError::BillDoesNotAddUp {
            lines: lines_total,
            total: order.order_total_paise,
        });
    }

    let text = |style: Style, s: &str| fonts.shape(style, s);
    // Lines of `style` for `s`, wrapped to `width`, each starting at `x`.
    let paragraph = |style: Style, s: &str, x: f32, width: f32| -> Vec<Line> {
        fonts
            .wrap(style, s, width)
            .into_iter()
            .map(|run| Line::of(style).left(x, run))
            .collect()
    };
    let content_width = RIGHT - LEFT;
    let mut pages = Pages::new(fonts, order.order_id);

    // Who, what and when.
    let mut head = vec![
        Line::of(TITLE).left(LEFT, text(TITLE, "Tax Invoice")),
        Line::space(4.0),
    ];
    head.push(Line::of(STRONG).left(LEFT, text(STRONG, &format!("Order ID: {}", order.order_id))));
    head.push(Line::of(BODY).left(
        LEFT,
        text(BODY, &format!("Order date: {} IST", ist(order.order_time))),
    ));
    head.push(Line::of(BODY).left(
        LEFT,
        text(BODY, &format!("Invoice date: {} IST", ist(issued_at_unix))),
    ));
    pages.place(head);
    pages.gap(14.0);

    let mut seller = vec![Line::of(HEADING).left(LEFT, text(HEADING, "Sold by"))];
    seller.extend(paragraph(
        STRONG,
        &order.restaurant_name,
        LEFT,
        content_width,
    ));
    seller.push(Line::of(BODY).left(LEFT, text(BODY, &gstin_placeholder(order.restaurant_id))));
    pages.place(seller);

    if let Some(address) = &order.delivery_address {
        pages.gap(10.0);
        let mut to = vec![Line::of(HEADING).left(LEFT, text(HEADING, "Deliver to"))];
        for part in address_lines(address) {
            to.extend(paragraph(BODY, part, LEFT, content_width));
        }
        pages.place(to);
    }
    pages.gap(16.0);

    // The items.
    let header = vec![
        Line::of(HEADING)
            .left(LEFT, text(HEADING, "Item"))
            .right(QTY_RIGHT, text(HEADING, "Qty"))
            .right(UNIT_PRICE_RIGHT, text(HEADING, "Unit price"))
            .right(AMOUNT_RIGHT, text(HEADING, "Amount")),
        Line::rule(6.0),
    ];
    // The header goes with the first row, so it never sits alone at the foot of a page; from
    // then on it is repeated at the top of each page the table runs onto.
    let mut first_row = Some(header.clone());
    for item in &order.items {
        let mut row = first_row.take().unwrap_or_default();
        let mut names = paragraph(BODY, &item.name, LEFT, ITEM_WIDTH).into_iter();
        let first = names.next().unwrap_or_else(|| Line::of(BODY));
        row.push(
            first
                .right(QTY_RIGHT, text(BODY, &item.quantity.to_string()))
                .right(
                    UNIT_PRICE_RIGHT,
                    text(BODY, &rupees_in_full(item.unit_price_paise)),
                )
                .right(
                    AMOUNT_RIGHT,
                    text(BODY, &rupees_in_full(item.subtotal_paise)),
                ),
        );
        row.extend(names);
        if !item.choices.trim().is_empty() {
            row.extend(paragraph(
                SMALL,
                &item.choices,
                LEFT + 8.0,
                ITEM_WIDTH - 8.0,
            ));
        }
        row.push(Line::space(5.0));
        pages.place(row);
        pages.table_header = Some(header.clone());
    }
    if let Some(header) = first_row {
        pages.place(header);
    }
    pages.table_header = None;

    // The bill, line by line in the order's own display order, GST among them, then the total.
    let mut bill = vec![Line::rule(8.0)];
    for charge in &order.charges {
        let mut labels =
            paragraph(BODY, &charge.label, BILL_LABEL_LEFT, BILL_LABEL_WIDTH).into_iter();
        let first = labels.next().unwrap_or_else(|| Line::of(BODY));
        bill.push(first.right(
            AMOUNT_RIGHT,
            text(BODY, &rupees_in_full(charge.amount_paise)),
        ));
        bill.extend(labels);
    }
    bill.push(Line::rule(10.0));
    bill.push(Line::of(TOTAL).right(
        AMOUNT_RIGHT,
        text(
            TOTAL,
            &format!("Total: {}", rupees_in_full(order.order_total_paise)),
        ),
    ));
    bill.push(Line::of(SMALL).right(AMOUNT_RIGHT, text(SMALL, "Inclusive of GST")));
    pages.place(bill);
    pages.gap(14.0);

    let mut payment = vec![Line::of(BODY).left(
        LEFT,
        text(
            BODY,
            &format!("Payment method: {}", payment_method(&order.payment_method)),
        ),
    )];
    if !order.coupon_code.is_empty() {
        payment.extend(paragraph(
            BODY,
            &format!("Coupon applied: {}", order.coupon_code),
            LEFT,
            content_width,
        ));
    }
    payment.push(Line::space(8.0));
    payment.extend(paragraph(
        SMALL,
        "This is a computer-generated invoice and needs no signature.",
        LEFT,
        content_width,
    ));
    pages.place(payment);

    Ok(pages.finish(order.order_id))
}

/// The address as the customer saved it: its name ("Home"), the address, the area.
fn address_lines(address: &OrderAddress) -> impl Iterator<Item = &str> {
    [&address.annotation, &address.address, &address.area]
        .into_iter()
        .map(|part| part.trim())
        .filter(|part| !part.is_empty())
}

// --- Painting: the laid-out pages into a PDF. ---

fn paint(
    fonts: &Fonts,
    order: &Order,
    issued_at_unix: i64,
    pages: Vec<Vec<Mark>>,
) -> Result<Vec<u8>, InvoiceError> {
    let mut document = Document::new();
    let mut metadata = Metadata::new()
        .title(format!("Tax Invoice, Order ID: {}", order.order_id))
        .language("en-IN".into())
        .creator("Tiffin".into());
    if let Some(date) = pdf_date(issued_at_unix) {
        metadata = metadata.creation_date(date);
    }
    document.set_metadata(metadata);

    let settings = PageSettings::from_wh(PAGE_WIDTH, PAGE_HEIGHT)
        .ok_or_else(|| InvoiceError::Pdf("A4 is not a valid page size".into()))?;
    for marks in pages {
        let mut page = document.start_page_with(settings.clone());
        let mut surface = page.surface();
        for mark in marks {
            match mark {
                Mark::Text { x, baseline, run } => {
                    surface.set_stroke(None);
                    surface.set_fill(Some(Fill {
                        paint: luma::Color::new(run.style.gray).into(),
                        opacity: NormalizedF32::ONE,
                        rule: Default::default(),
                    }));
                    surface.draw_glyphs(
                        Point::from_xy(x, baseline),
                        &run.glyphs,
                        fonts.face(run.style).pdf.clone(),
                        &run.text,
                        run.style.size,
                        false,
                    );
                }
                Mark::Rule { x0, x1, y } => {
                    let mut path = PathBuilder::new();
                    path.move_to(x0, y);
                    path.line_to(x1, y);
                    let Some(path) = path.finish() else { continue };
                    surface.set_fill(None);
                    surface.set_stroke(Some(Stroke {
                        paint: luma::Color::new(160).into(),
                        width: 0.6,
                        ..Default::default()
                    }));
                    surface.draw_path(&path);
                }
            }
        }
        surface.finish();
        page.finish();
    }
    document
        .finish()
        .map_err(|e| InvoiceError::Pdf(e.to_string()))
}

#[cfg(test)]
mod tests;
