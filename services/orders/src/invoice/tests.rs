//! The invoice is checked the way a customer meets it: the PDF's text is read back with a PDF
//! text extractor (as a screen reader, a search or a copy-paste would), not taken from our own
//! layout.

use tiffin_proto::orders::v1::{Order, OrderAddress, OrderCharge, OrderItem};

use super::*;

/// 26 Nov 2026, 8:42 PM in India.
const ORDERED_AT: i64 = 1_795_705_920;
/// 26 Nov 2026, 9:00 PM in India.
const ISSUED_AT: i64 = 1_795_707_000;

fn item(name: &str, quantity: u32, unit_price_paise: i64, choices: &str) -> OrderItem {
    OrderItem {
        menu_item_id: 1,
        name: name.into(),
        quantity,
        unit_price_paise,
        subtotal_paise: unit_price_paise * i64::from(quantity),
        choices: choices.into(),
    }
}

fn charge(key: &str, label: &str, amount_paise: i64) -> OrderCharge {
    OrderCharge {
        key: key.into(),
        label: label.into(),
        amount_paise,
    }
}

/// A dinner for two as the orders service stores it: five items, the cart's bill with its GST and
/// a coupon, paid by UPI.
fn dinner() -> Order {
    let charges = vec![
        charge("ITEM_TOTAL", "Item Total", 62_500),
        charge("DELIVERY_FEE", "Delivery Fee | 2.4 kms", 4_000),
        charge("PACKAGING", "Packaging Charges", 2_500),
        charge("PLATFORM_FEE", "Platform Fee", 500),
        charge("GST", "GST", 3_560),
        charge("COUPON_DISCOUNT", "Coupon Discount (WELCOME100)", -10_000),
    ];
    Order {
        order_id: 7_203_118_455,
        order_status: "PLACED".into(),
        restaurant_id: 90_042,
        restaurant_name: "Spice Route Kitchen".into(),
        order_total_paise: charges.iter().map(|c| c.amount_paise).sum(),
        order_time: ORDERED_AT,
        payment_method: "upi_collect".into(),
        items: vec![
            item("Paneer Butter Masala", 1, 24_000, "Half, Extra butter"),
            item("Garlic Naan", 3, 4_500, ""),
            item("Jeera Rice", 1, 12_000, ""),
            item("Gulab Jamun (2 pcs)", 1, 6_000, ""),
            item("Masala Chaas", 2, 3_500, "Less salt"),
        ],
        charges,
        delivery_address: Some(OrderAddress {
            address_id: "a1".into(),
            annotation: "Home".into(),
            address: "Flat 4B, Lakeview Apartments, 12th Main Road".into(),
            area: "Indiranagar, Bengaluru".into(),
        }),
        coupon_code: "WELCOME100".into(),
        ..Default::default()
    }
}

/// An order with `count` items, each named "Dish NN" and priced so the bill adds up.
fn banquet(count: u32) -> Order {
    let items: Vec<OrderItem> = (1..=count)
        .map(|n| item(&format!("Dish {n:02}"), 1, 10_000 + i64::from(n), "Regular"))
        .collect();
    let item_total = items.iter().map(|i| i.subtotal_paise).sum();
    let gst = item_total * 5 / 100;
    Order {
        charges: vec![
            charge("ITEM_TOTAL", "Item Total", item_total),
            charge("GST", "GST", gst),
        ],
        order_total_paise: item_total + gst,
        items,
        coupon_code: String::new(),
        ..dinner()
    }
}

/// Each page's text as a PDF reader extracts it, with runs of white space made single spaces.
fn read_pages(pdf: &[u8]) -> Vec<String> {
    pdf_extract::extract_text_from_mem_by_pages(pdf)
        .expect("the invoice is a PDF a reader can extract text from")
        .into_iter()
        .map(|page| page.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn an_invoice_states_the_order_its_seller_items_taxes_total_and_payment() {
    // Arrange
    let order = dinner();

    // Act
    let pdf = render(&order, ISSUED_AT).expect("a consistent order renders");
    let pages = read_pages(&pdf);

    // Assert
    assert_eq!(pages.len(), 1, "five items fit on one page");
    let text = &pages[0];
    for expected in [
        "Tax Invoice",
        "Order ID: 7203118455",
        "Order date: 26 Nov 2026, 8:42 PM IST",
        "Invoice date: 26 Nov 2026, 9:00 PM IST",
        "Spice Route Kitchen",
        "GSTIN: 29TIFFN0042R1Z5 (placeholder)",
        "Home",
        "Flat 4B, Lakeview Apartments, 12th Main Road",
        "Indiranagar, Bengaluru",
        "Paneer Butter Masala",
        "Half, Extra butter",
        "Garlic Naan",
        "Jeera Rice",
        "Gulab Jamun (2 pcs)",
        "Masala Chaas",
        "₹45.00",
        "₹135.00",
        "Item Total",
        "₹625.00",
        "Delivery Fee | 2.4 kms",
        "Packaging Charges",
        "Platform Fee",
        "GST",
        "₹35.60",
        "Coupon Discount (WELCOME100)",
        "−₹100.00",
        "Total: ₹630.60",
        "Payment method: UPI",
        "Coupon applied: WELCOME100",
    ] {
        assert!(
            text.contains(expected),
            "{expected:?} is missing from the invoice's text:\n{text}"
        );
    }
}

#[test]
fn sixty_items_flow_onto_further_pages_and_every_name_can_be_read() {
    // Arrange
    let order = banquet(60);

    // Act
    let pdf = render(&order, ISSUED_AT).expect("a consistent order renders");
    let pages = read_pages(&pdf);

    // Assert
    assert!(pages.len() > 1, "60 items took {} page(s)", pages.len());
    let all = pages.join("\n");
    for item in &order.items {
        assert_eq!(
            all.matches(&item.name).count(),
            1,
            "{} should be on the invoice exactly once",
            item.name
        );
    }
    for (i, page) in pages.iter().enumerate() {
        let footer = format!("Page {} of {}", i + 1, pages.len());
        assert!(page.contains(&footer), "page {} lacks {footer:?}", i + 1);
    }
    assert!(
        pages[1].contains("(continued)") && pages[1].contains("Unit price"),
        "a further page says whose invoice it is and repeats the table's header:\n{}",
        pages[1]
    );
    let last = pages.last().expect("at least one page");
    assert!(last.contains(&format!(
        "Total: {}",
        rupees_in_full(order.order_total_paise)
    )));
}

#[test]
fn nothing_is_drawn_outside_the_page_margins_however_long_the_text() {
    // Arrange: 40 items whose names and choices are far wider than their column, one of them a
    // single unbroken word, and an address longer than a line.
    let fonts = Fonts::load().expect("bundled fonts load");
    let long_name = "Slow-cooked Hyderabadi Dum Biryani with Saffron, Fried Onions, Mint, \
                     Boiled Egg, Raita, Mirchi ka Salan and a Double Portion of Tender Mutton";
    let mut order = banquet(40);
    for (n, item) in order.items.iter_mut().enumerate() {
        item.name = if n == 7 {
            "Supercalifragilisticexpialidocious".repeat(4)
        } else {
            format!("{long_name} {n}")
        };
        item.choices = "Extra raita, Extra salan, Double egg, No onions, Less spicy, ".repeat(3);
    }
    if let Some(address) = order.delivery_address.as_mut() {
        address.address = "Flat 4B, Lakeview Apartments, ".repeat(8);
    }

    // Act
    let pages = layout(&fonts, &order, ISSUED_AT).expect("a consistent order lays out");

    // Assert
    assert!(pages.len() > 2, "long rows took {} pages", pages.len());
    for (p, marks) in pages.iter().enumerate() {
        for mark in marks {
            match mark {
                Mark::Text { x, baseline, run } => {
                    let page = p + 1;
                    assert!(
                        *x >= LEFT - 0.01 && x + run.width <= RIGHT + 0.01,
                        "page {page}: {:?} runs from {x} to {}",
                        run.text,
                        x + run.width
                    );
                    let in_body = *baseline >= TOP && *baseline <= BOTTOM;
                    assert!(
                        in_body || *baseline == FOOTER_BASELINE,
                        "page {page}: {:?} sits at {baseline}",
                        run.text
                    );
                }
                Mark::Rule { x0, x1, y } => {
                    assert!(*x0 >= LEFT && *x1 <= RIGHT && *y >= TOP && *y <= BOTTOM);
                }
            }
        }
    }
}

#[test]
fn the_fonts_are_embedded_as_subsets_and_the_pdf_stays_small() {
    // Arrange
    let order = dinner();

    // Act
    let pdf = render(&order, ISSUED_AT).expect("a consistent order renders");

    // Assert
    let contains = |needle: &[u8]| pdf.windows(needle.len()).any(|w| w == needle);
    assert!(contains(b"/FontFile2"), "the fonts travel inside the PDF");
    assert!(contains(b"/ToUnicode"), "every glyph maps back to its text");
    // Each font is about 700 kB whole; a subset of the few dozen glyphs used is a few kB.
    eprintln!("a five-item invoice is {} bytes", pdf.len());
    assert!(
        pdf.len() < 40_000,
        "a five-item invoice is {} bytes: are the fonts still subset?",
        pdf.len()
    );
}

#[test]
fn the_same_order_and_date_always_give_the_same_bytes() {
    let order = dinner();

    let first = render(&order, ISSUED_AT).expect("renders");
    let second = render(&order, ISSUED_AT).expect("renders");

    assert!(
        first == second,
        "rendering depends on something besides its inputs"
    );
}

#[test]
fn a_charge_the_invoice_does_not_know_shows_by_its_label() {
    // Arrange: a cancellation fee, which the bill does not have yet.
    let mut order = dinner();
    order
        .charges
        .push(charge("CANCELLATION_FEE", "Cancellation Fee", 5_000));
    order.order_total_paise += 5_000;

    // Act
    let text = read_pages(&render(&order, ISSUED_AT).expect("renders")).join("\n");

    // Assert
    assert!(text.contains("Cancellation Fee"), "{text}");
    assert!(text.contains("Total: ₹680.60"), "{text}");
}

#[test]
fn a_bill_whose_lines_do_not_add_up_to_the_total_is_refused() {
    let mut order = dinner();
    order.order_total_paise += 1;

    let refused = render(&order, ISSUED_AT);

    assert!(
        matches!(
            refused,
            Err(InvoiceError::BillDoesNotAddUp {
                lines: 63_060,
                total: 63_061
            })
        ),
        "{refused:?}"
    );
}
