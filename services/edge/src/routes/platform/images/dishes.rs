//! One drawing per kind of dish, each in the 508×320 box, centred near (254, 165). A kind fixes
//! what the picture is (a handi of biryani, a dosa with its chutneys); the id's draws vary what a
//! cook would vary (the pot, the garnish, how many pieces, the sauce), so a menu of ten curries
//! shows ten different curries. Shapes are few and flat, which keeps each picture a few KB.

use tiffin_catalog_format::picture::DishKind;

use super::pen::{
    Draws, STEEL, STEEL_DARK, WHITE, any_plate, bowl, dots, leaf, leaves, lemon, plate, put,
    shadow, steam,
};

/// Draws a dish of `kind`.
pub(super) fn draw(svg: &mut String, d: &mut Draws, kind: DishKind) {
    match kind {
        DishKind::Plate => plated(svg, d),
        DishKind::Biryani => biryani(svg, d),
        DishKind::Dosa => dosa(svg, d),
        DishKind::Idli => idli(svg, d),
        DishKind::Thali => thali(svg, d),
        DishKind::Curry => curry(
            svg,
            d,
            &["#c4471c", "#d2691e", "#e07b39", "#b5381f", "#4f7f2e"],
        ),
        DishKind::Dal => curry(svg, d, &["#e3b23c", "#d9a441", "#c98a2b", "#3b2a20"]),
        DishKind::Rice => rice(svg, d),
        DishKind::Noodles => noodles(svg, d),
        DishKind::Momos => momos(svg, d),
        DishKind::Pizza => pizza(svg, d),
        DishKind::Burger => burger(svg, d),
        DishKind::Fries => fries(svg, d),
        DishKind::Roll => roll(svg, d),
        DishKind::Sandwich => sandwich(svg, d),
        DishKind::Kebab => kebab(svg, d),
        DishKind::Starter => starter(svg, d),
        DishKind::Fish => fish(svg, d),
        DishKind::Eggs => eggs(svg, d),
        DishKind::Soup => soup(svg, d),
        DishKind::Salad => salad(svg, d),
        DishKind::Pasta => pasta(svg, d),
        DishKind::Chaat => chaat(svg, d),
        DishKind::PavBhaji => pav_bhaji(svg, d),
        DishKind::Samosa => samosa(svg, d),
        DishKind::Bread => bread(svg, d),
        DishKind::GulabJamun => sweet_balls(svg, d, "#6b2a12", "#d98e2b"),
        DishKind::Rasgulla => sweet_balls(svg, d, "#fbf6e6", "#f1e6c4"),
        DishKind::Kheer => pudding(svg, d, &["#f3e3c3", "#f6e9cf", "#f0d9b0"]),
        DishKind::Halwa => pudding(svg, d, &["#d9621e", "#c97a2b", "#e08a2c"]),
        DishKind::IceCream => ice_cream(svg, d),
        DishKind::Cake => cake(svg, d),
        DishKind::Mithai => mithai(svg, d),
        DishKind::Lassi => glass(svg, d, &["#f7f1dc", "#f3c04a", "#f4e6c0"], Topping::Cream),
        DishKind::Shake => glass(
            svg,
            d,
            &["#7b4a2d", "#e8a0b4", "#a8683c", "#c48b5a"],
            Topping::Cream,
        ),
        DishKind::Juice => glass(
            svg,
            d,
            &["#e8552f", "#f39c12", "#8bc34a", "#c0392b", "#f7dc6f"],
            Topping::Lemon,
        ),
        DishKind::Chai => cup(svg, d, true),
        DishKind::Coffee => cup(svg, d, false),
    }
}

/// A generic plated dish: what old ids, and dishes no kind names, show.
fn plated(svg: &mut String, d: &mut Draws) {
    any_plate(svg, d, 254, 165, 118);
    let food = d.pick(&["#c4471c", "#d9a441", "#8d5524", "#e07b39"]);
    put!(svg, r##"<circle cx="254" cy="165" r="62" fill="{food}"/>"##);
    dots(svg, d, 254, 165, 38, 30, 6, 5, &["#fff3c4", "#7a2e12"]);
    leaves(svg, d, 254, 160, 40, 30, 5);
}

fn biryani(svg: &mut String, d: &mut Draws) {
    let pot = d.pick(&["#b8642f", "#a0522d", "#c9a13b", "#8f4a26"]);
    shadow(svg, 258, 280, 124, 16);
    put!(
        svg,
        r##"<path d="M156 132C136 196 166 274 254 278C342 274 372 196 352 132z" fill="{pot}"/><path d="M168 178Q254 200 340 178" fill="none" stroke="#000" stroke-opacity=".15" stroke-width="6"/><ellipse cx="254" cy="132" rx="100" ry="24" fill="{pot}"/><ellipse cx="254" cy="130" rx="88" ry="18" fill="#f4dca6"/><path d="M170 130Q254 54 338 130z" fill="#f6e2b3"/>"##
    );
    // Grains, saffron and fried onion on the mound.
    for _ in 0..22 {
        let (x, y) = (d.int(190, 318), d.int(96, 128));
        let colour = d.pick(&["#fffaf0", "#fffaf0", "#f0a030", "#f7c948", "#8a4a1c"]);
        let turn = d.int(-40, 40);
        put!(
            svg,
            r##"<path d="M{x} {y}h8" stroke="{colour}" stroke-width="4" stroke-linecap="round" transform="rotate({turn} {x} {y})"/>"##
        );
    }
    match d.next(3) {
        0 => put!(
            svg,
            r##"<path d="M268 96q30-18 44 6q-18 18-44 8z" fill="#9b4d1e"/><rect x="300" y="82" width="9" height="26" rx="4" fill="#f4ead6" transform="rotate(50 304 95)"/>"##
        ),
        1 => put!(
            svg,
            r##"<ellipse cx="284" cy="104" rx="18" ry="14" fill="#fff"/><circle cx="284" cy="106" r="8" fill="#f2b01e"/>"##
        ),
        _ => dots(svg, d, 254, 108, 40, 10, 5, 7, &["#e8d7a8", "#f3c77a"]),
    }
    leaves(svg, d, 254, 110, 50, 12, 4);
    if d.chance(5) {
        lemon(svg, 330, 236);
    }
}

fn dosa(svg: &mut String, d: &mut Draws) {
    if d.chance(5) {
        leaf(svg, 254, 168, 230, 70);
    } else {
        plate(svg, 254, 168, 140, STEEL, "#e3e7ea");
    }
    let tilt = d.int(-14, 2);
    let crisp = d.pick(&["#d99a3a", "#c98a2e", "#e0a848"]);
    put!(
        svg,
        r##"<g transform="rotate({tilt} 254 150)"><path d="M92 170L400 124Q428 142 404 164L104 206Q80 192 92 170z" fill="{crisp}"/><path d="M120 182L390 142" stroke="#a8661c" stroke-width="3" stroke-opacity=".5"/><path d="M140 196L396 156" stroke="#f3cf86" stroke-width="4" stroke-opacity=".6"/>"##
    );
    dots(svg, d, 250, 166, 130, 14, 9, 3, &["#8a4a1c", "#b06a24"]);
    svg.push_str("</g>");
    // The chutneys and sambar, each in its small steel bowl.
    let sides = [("#f4f1e4", 170), ("#d9482b", 254), ("#c8651b", 338)];
    let count = 2 + d.next(2) as usize;
    for &(food, x) in &sides[3 - count..] {
        bowl(svg, x, 252, 30, STEEL, food);
    }
    dots(svg, d, 338, 252, 14, 14, 4, 3, &["#2f7d32", "#f3a712"]);
}

fn idli(svg: &mut String, d: &mut Draws) {
    any_plate(svg, d, 230, 165, 120);
    let count = 2 + d.next(3);
    let spots = [(190, 140), (262, 130), (226, 196), (290, 196)];
    for &(x, y) in spots.iter().take(count as usize) {
        put!(
            svg,
            r##"<ellipse cx="{x}" cy="{}" rx="38" ry="30" fill="#e4dcc6"/><ellipse cx="{x}" cy="{y}" rx="36" ry="28" fill="#fbf8ef"/><ellipse cx="{}" cy="{}" rx="14" ry="7" fill="#fff"/>"##,
            y + 5,
            x - 8,
            y - 8
        );
    }
    if d.chance(5) {
        // A medu vada beside them.
        put!(
            svg,
            r##"<circle cx="170" cy="210" r="32" fill="#b8772c"/><circle cx="170" cy="210" r="24" fill="#d3953e"/><circle cx="170" cy="210" r="9" fill="#f1ebe0"/>"##
        );
    }
    bowl(svg, 400, 120, 44, STEEL, "#c8651b");
    dots(
        svg,
        d,
        400,
        120,
        20,
        20,
        6,
        4,
        &["#f3a712", "#2f7d32", "#7a2e12"],
    );
    bowl(svg, 410, 238, 36, STEEL, "#f4f1e4");
    dots(svg, d, 410, 238, 12, 12, 3, 3, &["#2f7d32", "#1b1b1b"]);
}

fn thali(svg: &mut String, d: &mut Draws) {
    plate(svg, 254, 162, 146, STEEL, "#e6eaed");
    put!(
        svg,
        r##"<circle cx="254" cy="162" r="146" fill="none" stroke="{STEEL_DARK}" stroke-width="4"/>"##
    );
    // The katoris round the rim, each with something else.
    let foods = [
        "#e3b23c", "#c4471c", "#4f7f2e", "#f7f3e8", "#d2691e", "#6b2a12", "#f39c12",
    ];
    let start = d.next(foods.len() as u64) as usize;
    for (n, (x, y)) in [(170, 92), (254, 70), (338, 92), (372, 172), (338, 246)]
        .into_iter()
        .enumerate()
    {
        bowl(svg, x, y, 34, STEEL, foods[(start + n) % foods.len()]);
    }
    // Rice, a roti and a papad in the middle.
    put!(
        svg,
        r##"<ellipse cx="236" cy="190" rx="54" ry="38" fill="#fbf8ef"/><circle cx="160" cy="196" r="44" fill="#e7c07a"/><circle cx="160" cy="196" r="44" fill="none" stroke="#c9954a" stroke-width="3"/>"##
    );
    dots(svg, d, 160, 196, 26, 26, 6, 4, &["#9b5b22"]);
    dots(svg, d, 236, 186, 38, 24, 10, 2, &["#efe4c8"]);
    put!(
        svg,
        r##"<circle cx="262" cy="262" r="26" fill="#f1dc9a"/><circle cx="290" cy="178" r="11" fill="#b5381f"/>"##
    );
    leaves(svg, d, 236, 176, 20, 10, 2);
}

fn curry(svg: &mut String, d: &mut Draws, gravies: &[&str]) {
    let gravy = d.pick(gravies);
    let outside = d.pick(&[WHITE, "#2f2f36", "#b7703a", STEEL]);
    // Rice on its own plate behind the bowl.
    if d.chance(7) {
        plate(svg, 366, 128, 70, WHITE, "#f1ebe0");
        put!(
            svg,
            r##"<ellipse cx="366" cy="128" rx="44" ry="32" fill="#fbf8ef"/>"##
        );
        dots(svg, d, 366, 126, 30, 20, 10, 2, &["#e9dcc0", "#c8a464"]);
    }
    bowl(svg, 218, 176, 104, outside, gravy);
    // Pieces in the gravy: paneer, chicken, kofta or vegetables.
    let piece = d.pick(&["#fbf3dc", "#9b4d1e", "#c27a3a", "#e9d28c"]);
    for _ in 0..4 + d.next(4) {
        let (x, y, turn) = (d.int(168, 262), d.int(134, 214), d.int(0, 80));
        put!(
            svg,
            r##"<rect x="{x}" y="{y}" width="22" height="18" rx="5" fill="{piece}" transform="rotate({turn} {} {})"/>"##,
            x + 11,
            y + 9
        );
    }
    if d.chance(6) {
        put!(
            svg,
            r##"<path d="M180 170q30-40 60-6t40 10" fill="none" stroke="#fff8ec" stroke-width="6" stroke-linecap="round" opacity=".85"/>"##
        );
    }
    dots(svg, d, 218, 176, 56, 46, 5, 3, &["#7a2e12", "#e8c36a"]);
    leaves(svg, d, 218, 172, 54, 44, 6);
}

fn rice(svg: &mut String, d: &mut Draws) {
    any_plate(svg, d, 254, 165, 124);
    let grain = d.pick(&["#fbf8ef", "#f7e6a6", "#e9cf94", "#f4dca6"]);
    put!(
        svg,
        r##"<ellipse cx="254" cy="165" rx="84" ry="66" fill="{grain}"/><ellipse cx="240" cy="148" rx="44" ry="26" fill="#fff" opacity=".35"/>"##
    );
    dots(svg, d, 254, 165, 70, 52, 18, 3, &["#efe4c8", "#d9c59a"]);
    if d.chance(6) {
        dots(
            svg,
            d,
            254,
            165,
            62,
            46,
            12,
            5,
            &["#5aa02c", "#e67e22", "#f4d03f"],
        );
    }
    leaves(svg, d, 254, 160, 50, 36, 4);
    if d.chance(4) {
        lemon(svg, 330, 210);
    }
}

fn noodles(svg: &mut String, d: &mut Draws) {
    let outside = d.pick(&["#2f2f36", "#b3261e", WHITE, "#1f4e5f"]);
    bowl(svg, 248, 168, 118, outside, "#d9a05b");
    let strand = d.pick(&["#e8c170", "#d9a05b", "#c98a3a"]);
    for n in 0..9 {
        let y = 110 + n * 13 + d.int(-3, 3);
        let x = 160 + d.int(-6, 10);
        put!(
            svg,
            r##"<path d="M{x} {y}q22-16 44 0t44 0 44 0 44 0" fill="none" stroke="{strand}" stroke-width="6" stroke-linecap="round"/>"##
        );
    }
    // Vegetables, then the chopsticks across the bowl.
    for _ in 0..8 {
        let (x, y, turn) = (d.int(170, 320), d.int(110, 226), d.int(0, 170));
        let colour = d.pick(&["#e67e22", "#4caf50", "#d63d2e", "#f4d03f", "#8e5a2b"]);
        put!(
            svg,
            r##"<rect x="{x}" y="{y}" width="18" height="6" rx="3" fill="{colour}" transform="rotate({turn} {x} {y})"/>"##
        );
    }
    leaves(svg, d, 248, 150, 60, 50, 4);
    put!(
        svg,
        r##"<rect x="270" y="40" width="9" height="230" rx="4" fill="#c89b62" transform="rotate(38 274 155)"/><rect x="292" y="40" width="9" height="230" rx="4" fill="#b3864d" transform="rotate(32 296 155)"/>"##
    );
}

fn momos(svg: &mut String, d: &mut Draws) {
    shadow(svg, 250, 180, 136, 128);
    put!(
        svg,
        r##"<circle cx="244" cy="166" r="132" fill="#c79a5c"/><circle cx="244" cy="166" r="118" fill="#ddb77c"/><path d="M140 166H348M244 62V270M170 92L318 240M318 92L170 240" stroke="#c79a5c" stroke-width="3"/>"##
    );
    let skin = d.pick(&["#f7f3ea", "#f7f3ea", "#e9bd6a", "#e3823a"]);
    let spots = [
        (196, 120),
        (270, 112),
        (320, 170),
        (178, 190),
        (250, 180),
        (296, 236),
        (214, 246),
    ];
    let count = 5 + d.next(3) as usize;
    for &(x, y) in &spots[..count] {
        put!(
            svg,
            r##"<path d="M{} {}q4-40 36-40t36 40q-36 16-72 0z" fill="{skin}" stroke="#000" stroke-opacity=".08" stroke-width="3"/><path d="M{} {}q6 14 12 26M{x} {}v30M{} {}q-6 14-12 26" fill="none" stroke="#000" stroke-opacity=".12" stroke-width="2"/>"##,
            x - 36,
            y + 14,
            x - 8,
            y - 24,
            y - 26,
            x + 8,
            y - 24
        );
    }
    bowl(svg, 420, 250, 40, WHITE, "#c0392b");
    dots(svg, d, 420, 250, 16, 16, 6, 2, &["#f5b041", "#fff"]);
}

fn pizza(svg: &mut String, d: &mut Draws) {
    shadow(svg, 262, 178, 132, 126);
    put!(
        svg,
        r##"<circle cx="254" cy="165" r="134" fill="#8b5a2b"/><circle cx="254" cy="165" r="118" fill="#d9973f"/><circle cx="254" cy="165" r="104" fill="#c8402a"/><circle cx="254" cy="165" r="98" fill="#f6d37a"/>"##
    );
    dots(svg, d, 254, 165, 70, 70, 8, 14, &["#f9e08f", "#f1c560"]);
    // Toppings from one of a few pizzas.
    match d.next(4) {
        0 => dots(svg, d, 254, 165, 72, 72, 9, 12, &["#b3261e", "#c0392b"]),
        1 => {
            for _ in 0..10 {
                let (x, y) = (d.int(180, 328), d.int(92, 238));
                put!(
                    svg,
                    r##"<circle cx="{x}" cy="{y}" r="7" fill="none" stroke="#1b1b1b" stroke-width="4"/>"##
                );
            }
            dots(svg, d, 254, 165, 72, 72, 8, 6, &["#d63d2e"]);
        }
        2 => {
            for _ in 0..9 {
                let (x, y, turn) = (d.int(180, 320), d.int(95, 232), d.next(180));
                let colour = d.pick(&["#3c8d2f", "#8e44ad", "#d63d2e"]);
                put!(
                    svg,
                    r##"<path d="M{x} {y}a12 12 0 0 1 20 0" fill="none" stroke="{colour}" stroke-width="5" transform="rotate({turn} {x} {y})"/>"##
                );
            }
            dots(svg, d, 254, 165, 72, 72, 8, 5, &["#f4d03f"]);
        }
        _ => dots(svg, d, 254, 165, 72, 72, 10, 9, &["#f3ead0", "#e67e22"]),
    }
    leaves(svg, d, 254, 165, 66, 66, 4);
    for turn in [0, 45, 90, 135] {
        put!(
            svg,
            r##"<path d="M254 49V281" stroke="#f9e8b8" stroke-width="3" opacity=".7" transform="rotate({turn} 254 165)"/>"##
        );
    }
}

fn burger(svg: &mut String, d: &mut Draws) {
    shadow(svg, 254, 274, 150, 18);
    let bun = d.pick(&["#d98b3a", "#c97a2b", "#e0a050"]);
    put!(
        svg,
        r##"<path d="M140 236h228q0 36-28 36H168q-28 0-28-36z" fill="{bun}"/>"##
    );
    let patty = d.pick(&["#6b3a1f", "#5a3020", "#8b5a2b"]);
    let patties = 1 + d.next(2) as i32;
    let mut y = 218;
    for _ in 0..patties {
        put!(
            svg,
            r##"<rect x="130" y="{y}" width="248" height="26" rx="13" fill="{patty}"/>"##
        );
        y -= 20;
    }
    if d.chance(7) {
        put!(
            svg,
            r##"<path d="M136 {}h236l-26 22-20-16-26 24-24-20-26 22-22-18-24 20-22-16z" fill="#f6c343"/>"##,
            y + 18
        );
    }
    put!(
        svg,
        r##"<rect x="150" y="{}" width="208" height="12" rx="6" fill="#d63d2e"/><path d="M126 {}q16 14 32 0t32 0 32 0 32 0 32 0 32 0 32 0 32 0v-10H126z" fill="#5cb030"/>"##,
        y + 4,
        y + 6
    );
    let top = y - 2;
    put!(
        svg,
        r##"<path d="M132 {top}q0-96 122-96t122 96z" fill="{bun}"/><path d="M168 {}q40-50 110-48" fill="none" stroke="#fff" stroke-opacity=".25" stroke-width="8" stroke-linecap="round"/>"##,
        top - 40
    );
    for _ in 0..10 {
        let (x, yy, turn) = (d.int(170, 336), d.int(top - 78, top - 20), d.int(-40, 40));
        put!(
            svg,
            r##"<ellipse cx="{x}" cy="{yy}" rx="5" ry="3" fill="#fbf0d0" transform="rotate({turn} {x} {yy})"/>"##
        );
    }
}

fn fries(svg: &mut String, d: &mut Draws) {
    shadow(svg, 254, 282, 110, 14);
    let fry = d.pick(&["#f4c542", "#f0b431", "#e8a33a"]);
    for _ in 0..14 {
        let (x, turn, h) = (d.int(184, 312), d.int(-16, 16), d.int(120, 170));
        put!(
            svg,
            r##"<rect x="{x}" y="{}" width="16" height="{h}" rx="3" fill="{fry}" stroke="#c98a1e" stroke-width="2" transform="rotate({turn} {x} 200)"/>"##,
            240 - h
        );
    }
    if d.chance(3) {
        dots(svg, d, 254, 110, 60, 20, 12, 3, &["#d63d2e", "#b3261e"]);
    }
    let carton = d.pick(&["#d32f2f", "#f39c12", "#1f6fb2", "#2e7d32"]);
    put!(
        svg,
        r##"<path d="M170 160h168l-22 122H192z" fill="{carton}"/><path d="M176 180h156" stroke="#fff" stroke-width="8" opacity=".8"/>"##
    );
    bowl(svg, 400, 246, 34, WHITE, "#c0392b");
}

fn roll(svg: &mut String, d: &mut Draws) {
    any_plate(svg, d, 254, 170, 130);
    let wrap = d.pick(&["#e8c48a", "#dcb06e", "#f0d29a"]);
    let filling = d.pick(&["#c4471c", "#f3ead0", "#9b4d1e", "#e07b39"]);
    for (dx, dy, turn) in [(0, 0, -20), (40, 52, -14)] {
        let (x, y) = (120 + dx, 128 + dy);
        put!(
            svg,
            r##"<g transform="rotate({turn} {} {})"><rect x="{x}" y="{y}" width="230" height="62" rx="31" fill="{wrap}"/><rect x="{}" y="{y}" width="90" height="62" fill="#f7f3ea"/><path d="M{} {y}v62" stroke="#d63d2e" stroke-width="6"/><ellipse cx="{}" cy="{}" rx="20" ry="31" fill="{wrap}"/><ellipse cx="{}" cy="{}" rx="15" ry="25" fill="{filling}"/>"##,
            x + 115,
            y + 31,
            x + 110,
            x + 140,
            x + 230,
            y + 31,
            x + 230,
            y + 31
        );
        dots(
            svg,
            d,
            x + 230,
            y + 31,
            8,
            16,
            5,
            3,
            &["#4caf50", "#fff", "#8e44ad"],
        );
        dots(
            svg,
            d,
            x + 56,
            y + 31,
            40,
            20,
            5,
            4,
            &["#a8661c", "#8a4a1c"],
        );
        svg.push_str("</g>");
    }
}

fn sandwich(svg: &mut String, d: &mut Draws) {
    any_plate(svg, d, 254, 168, 132);
    let filling = d.pick(&["#5cb030", "#f6c343", "#d63d2e", "#e9d28c"]);
    for (x, y, turn) in [(150, 100, -8), (240, 130, 12)] {
        put!(
            svg,
            r##"<g transform="rotate({turn} {} {})"><path d="M{x} {}l126-0 -126 126z" fill="{filling}"/><path d="M{} {y}h120l-120 120z" fill="#c98b3c"/><path d="M{} {}h96l-96 96z" fill="#f3dca5"/></g>"##,
            x + 60,
            y + 60,
            y + 4,
            x - 4,
            x + 8,
            y + 10
        );
    }
    dots(svg, d, 240, 170, 60, 40, 6, 3, &["#d9b26a"]);
    if d.chance(5) {
        put!(
            svg,
            r##"<circle cx="356" cy="236" r="26" fill="#c0392b"/>"##
        );
    }
}

fn kebab(svg: &mut String, d: &mut Draws) {
    if d.chance(5) {
        plate(svg, 254, 170, 140, "#2f2f36", "#3a3a42");
    } else {
        shadow(svg, 258, 180, 200, 100);
        put!(
            svg,
            r##"<rect x="60" y="80" width="388" height="186" rx="26" fill="#b07a45"/><path d="M80 120H430M80 170H430M80 220H430" stroke="#9a6636" stroke-width="3"/>"##
        );
    }
    let seekh = d.chance(3);
    let meat = d.pick(&["#d0642a", "#b5481f", "#e08a3a", "#f3e6c8"]);
    for (n, y) in [118, 168, 218].into_iter().enumerate() {
        let turn = d.int(-10, 10);
        put!(
            svg,
            r##"<g transform="rotate({turn} 254 {y})"><path d="M90 {y}H420" stroke="#8d9398" stroke-width="5" stroke-linecap="round"/>"##
        );
        if seekh {
            put!(
                svg,
                r##"<rect x="130" y="{}" width="250" height="30" rx="15" fill="#7a3b1a"/>"##,
                y - 15
            );
            dots(svg, d, 255, y, 110, 8, 8, 3, &["#4caf50", "#3b1a0c"]);
        } else {
            for i in 0..6 {
                let x = 128 + i * 44 + (n as i32 % 2) * 6;
                let colour = match i % 3 {
                    1 => d.pick(&["#3c8d2f", "#f4f1e4", "#8e44ad"]),
                    _ => meat,
                };
                put!(
                    svg,
                    r##"<rect x="{x}" y="{}" width="36" height="34" rx="8" fill="{colour}"/><path d="M{} {}l8-10" stroke="#3b1a0c" stroke-width="3" opacity=".5"/>"##,
                    y - 17,
                    x + 10,
                    y + 6
                );
            }
        }
        svg.push_str("</g>");
    }
    put!(
        svg,
        r##"<circle cx="424" cy="256" r="16" fill="none" stroke="#c39bd3" stroke-width="5"/>"##
    );
    lemon(svg, 82, 240);
}

fn starter(svg: &mut String, d: &mut Draws) {
    any_plate(svg, d, 254, 168, 126);
    let glaze = d.pick(&["#b3261e", "#c0571f", "#8b3a1a", "#d98b3a"]);
    for _ in 0..9 + d.next(4) {
        let (x, y, turn) = (d.int(190, 318), d.int(118, 214), d.next(180));
        put!(
            svg,
            r##"<ellipse cx="{x}" cy="{y}" rx="22" ry="15" fill="{glaze}" stroke="#000" stroke-opacity=".12" stroke-width="3" transform="rotate({turn} {x} {y})"/>"##
        );
    }
    dots(svg, d, 254, 166, 66, 50, 6, 6, &["#3c8d2f", "#f4f1e4"]);
    dots(svg, d, 254, 166, 60, 46, 10, 2, &["#fdf6e3"]);
    for _ in 0..5 {
        let (x, y) = (d.int(196, 312), d.int(124, 208));
        put!(
            svg,
            r##"<circle cx="{x}" cy="{y}" r="5" fill="none" stroke="#6ab04c" stroke-width="3"/>"##
        );
    }
}

fn fish(svg: &mut String, d: &mut Draws) {
    if d.chance(4) {
        leaf(svg, 254, 170, 220, 70);
    } else {
        plate(svg, 254, 170, 138, WHITE, "#f1ebe0");
    }
    let skin = d.pick(&["#c9822e", "#d4a03a", "#b5481f", "#e0a848"]);
    let turn = d.int(-12, 12);
    put!(
        svg,
        r##"<g transform="rotate({turn} 254 168)"><path d="M140 168Q230 92 340 160L392 122V214L340 176Q230 244 140 168z" fill="{skin}"/><circle cx="176" cy="158" r="7" fill="#fff"/><circle cx="176" cy="158" r="3.5" fill="#222"/><path d="M226 140q12 28 0 56M262 138q12 30 0 60M298 144q10 24 0 48" fill="none" stroke="#7a3b1a" stroke-width="4" opacity=".5"/></g>"##
    );
    leaves(svg, d, 254, 222, 90, 12, 5);
    lemon(svg, 330, 226);
    put!(
        svg,
        r##"<circle cx="150" cy="238" r="16" fill="none" stroke="#c39bd3" stroke-width="5"/>"##
    );
}

fn eggs(svg: &mut String, d: &mut Draws) {
    any_plate(svg, d, 254, 168, 130);
    put!(
        svg,
        r##"<rect x="290" y="90" width="100" height="96" rx="18" fill="#b9772f"/><rect x="298" y="98" width="84" height="80" rx="14" fill="#e9c27a"/><rect x="306" y="160" width="100" height="92" rx="18" fill="#b9772f" transform="rotate(14 356 206)"/><rect x="314" y="168" width="84" height="76" rx="14" fill="#e9c27a" transform="rotate(14 356 206)"/>"##
    );
    if d.chance(5) {
        for (x, y) in [(180, 136), (214, 212)] {
            put!(
                svg,
                r##"<path d="M{} {y}q10-44 52-36t40 40q0 40-46 40t-46-44z" fill="#fffdf6"/><circle cx="{}" cy="{}" r="20" fill="#f5b800"/><circle cx="{}" cy="{}" r="6" fill="#fff" opacity=".6"/>"##,
                x - 44,
                x + 2,
                y + 2,
                x - 6,
                y - 6
            );
        }
    } else {
        put!(
            svg,
            r##"<path d="M120 200a86 70 0 0 1 172 0z" fill="#f5d142"/>"##
        );
        dots(
            svg,
            d,
            206,
            174,
            56,
            20,
            10,
            4,
            &["#3c8d2f", "#d63d2e", "#8e44ad"],
        );
    }
    dots(svg, d, 200, 170, 70, 50, 5, 2, &["#1b1b1b"]);
}

fn soup(svg: &mut String, d: &mut Draws) {
    let broth = d.pick(&["#8b4a24", "#d9531e", "#f2c14e", "#5e8c31", "#c0392b"]);
    let outside = d.pick(&[WHITE, "#2f2f36", "#7d5a3c"]);
    bowl(svg, 240, 176, 108, outside, broth);
    if d.chance(5) {
        put!(
            svg,
            r##"<path d="M200 170q40-50 80 0t-40 30" fill="none" stroke="#fff8ec" stroke-width="6" stroke-linecap="round" opacity=".85"/>"##
        );
    }
    dots(
        svg,
        d,
        240,
        176,
        56,
        50,
        10,
        5,
        &["#f4f1e4", "#e67e22", "#4caf50", "#f4d03f"],
    );
    leaves(svg, d, 240, 170, 50, 44, 4);
    put!(
        svg,
        r##"<ellipse cx="392" cy="132" rx="24" ry="32" fill="{STEEL}"/><rect x="384" y="160" width="16" height="120" rx="8" fill="{STEEL}"/>"##
    );
    steam(svg, &[210, 250, 290], 80);
}

fn salad(svg: &mut String, d: &mut Draws) {
    let outside = d.pick(&[WHITE, "#a9744a", "#dfe8e1"]);
    bowl(svg, 254, 168, 124, outside, "#6fb043");
    for _ in 0..14 {
        let (x, y, turn) = (d.int(170, 338), d.int(92, 240), d.next(180));
        let colour = d.pick(&["#4caf50", "#2e7d32", "#8bc34a", "#7cb342", "#9c2b5a"]);
        put!(
            svg,
            r##"<ellipse cx="{x}" cy="{y}" rx="26" ry="13" fill="{colour}" transform="rotate({turn} {x} {y})"/>"##
        );
    }
    for _ in 0..4 + d.next(3) {
        let (x, y) = (d.int(186, 322), d.int(110, 226));
        put!(
            svg,
            r##"<circle cx="{x}" cy="{y}" r="13" fill="#e74c3c"/><circle cx="{}" cy="{}" r="4" fill="#fff" opacity=".5"/>"##,
            x - 4,
            y - 4
        );
    }
    for _ in 0..4 {
        let (x, y) = (d.int(186, 322), d.int(110, 226));
        put!(
            svg,
            r##"<circle cx="{x}" cy="{y}" r="13" fill="#dff0c8" stroke="#3d7d2a" stroke-width="3"/>"##
        );
    }
    dots(
        svg,
        d,
        254,
        168,
        64,
        56,
        5,
        6,
        &["#fbf7ea", "#1b1b1b", "#f4d03f"],
    );
}

fn pasta(svg: &mut String, d: &mut Draws) {
    any_plate(svg, d, 254, 168, 130);
    let sauce = d.pick(&["#c8402a", "#f3e6c8", "#e8906e", "#6a9a3a"]);
    put!(
        svg,
        r##"<ellipse cx="254" cy="168" rx="88" ry="74" fill="{sauce}"/>"##
    );
    if d.chance(5) {
        for r in [18, 32, 46, 60] {
            put!(
                svg,
                r##"<circle cx="254" cy="168" r="{r}" fill="none" stroke="#f0c36a" stroke-width="6" stroke-dasharray="{} 10" opacity=".95"/>"##,
                r * 2
            );
        }
    } else {
        for _ in 0..16 {
            let (x, y, turn) = (d.int(190, 300), d.int(112, 210), d.next(180));
            put!(
                svg,
                r##"<rect x="{x}" y="{y}" width="30" height="12" rx="5" fill="#f0c36a" stroke="#d9a441" stroke-width="2" transform="rotate({turn} {} {})"/>"##,
                x + 15,
                y + 6
            );
        }
    }
    dots(svg, d, 254, 168, 60, 50, 8, 4, &["#fffbe8"]);
    leaves(svg, d, 254, 160, 50, 40, 4);
}

fn chaat(svg: &mut String, d: &mut Draws) {
    any_plate(svg, d, 254, 168, 132);
    for (x, y) in [
        (200, 122),
        (272, 112),
        (330, 166),
        (188, 200),
        (258, 186),
        (304, 236),
    ] {
        put!(
            svg,
            r##"<circle cx="{x}" cy="{y}" r="32" fill="#d99a3a"/><circle cx="{x}" cy="{}" r="20" fill="#e4b25c"/><circle cx="{x}" cy="{}" r="14" fill="#c9a27a"/>"##,
            y - 4,
            y - 6
        );
    }
    // Curd, chutneys, sev, pomegranate and coriander on top.
    if d.chance(6) {
        put!(
            svg,
            r##"<path d="M180 150q60 40 130-10M190 210q60 20 120-20" fill="none" stroke="#fffdf4" stroke-width="8" stroke-linecap="round"/>"##
        );
    }
    for _ in 0..18 {
        let (x, y, turn) = (d.int(170, 340), d.int(96, 250), d.next(180));
        put!(
            svg,
            r##"<path d="M{x} {y}h10" stroke="#f1c232" stroke-width="3" stroke-linecap="round" transform="rotate({turn} {x} {y})"/>"##
        );
    }
    dots(svg, d, 256, 172, 76, 66, 8, 4, &["#c0392b", "#8e1e3c"]);
    leaves(svg, d, 256, 172, 70, 60, 5);
}

fn pav_bhaji(svg: &mut String, d: &mut Draws) {
    plate(svg, 254, 170, 140, STEEL, "#e3e7ea");
    let bhaji = d.pick(&["#c8531f", "#b5481f", "#d2691e"]);
    put!(
        svg,
        r##"<circle cx="200" cy="160" r="76" fill="{bhaji}"/><rect x="182" y="128" width="34" height="28" rx="5" fill="#ffe27a"/>"##
    );
    dots(svg, d, 200, 164, 44, 40, 10, 5, &["#f4f1e4", "#8e44ad"]);
    leaves(svg, d, 200, 164, 46, 40, 6);
    let bun = d.pick(&["#d98b3a", "#e0a050"]);
    for (x, y) in [(300, 196), (346, 150)] {
        put!(
            svg,
            r##"<rect x="{}" y="{}" width="84" height="60" rx="24" fill="{bun}"/><path d="M{} {}q30-14 60 0" fill="none" stroke="#fff6d8" stroke-width="6" opacity=".6"/>"##,
            x - 42,
            y - 30,
            x - 30,
            y - 10
        );
    }
    lemon(svg, 160, 236);
}

fn samosa(svg: &mut String, d: &mut Draws) {
    any_plate(svg, d, 254, 168, 130);
    let crust = d.pick(&["#d9a441", "#c98a2e", "#e0b050"]);
    let count = 2 + d.next(2) as usize;
    for &(x, y, turn) in [(210, 150, -8), (296, 150, 16), (252, 210, 180)]
        .iter()
        .take(count)
    {
        put!(
            svg,
            r##"<path d="M{} {}L{x} {}L{} {}Q{x} {} {} {}z" fill="{crust}" stroke="#a8661c" stroke-width="3" stroke-linejoin="round" transform="rotate({turn} {x} {y})"/>"##,
            x - 48,
            y + 34,
            y - 50,
            x + 48,
            y + 34,
            y + 44,
            x - 48,
            y + 34
        );
        dots(svg, d, x, y + 6, 20, 14, 4, 2, &["#8a4a1c"]);
    }
    bowl(svg, 390, 246, 30, WHITE, "#3f8f3a");
    bowl(svg, 118, 246, 30, WHITE, "#7a3b1a");
}

fn bread(svg: &mut String, d: &mut Draws) {
    let basket = d.chance(5);
    if basket {
        shadow(svg, 258, 180, 170, 110);
        put!(
            svg,
            r##"<ellipse cx="254" cy="170" rx="170" ry="118" fill="#a8743c"/><ellipse cx="254" cy="166" rx="150" ry="100" fill="#f4ead6"/>"##
        );
    } else {
        plate(svg, 254, 168, 134, WHITE, "#f1ebe0");
    }
    let dough = d.pick(&["#e7c07a", "#dcb06e", "#eecb8b"]);
    for (x, y, turn) in [(210, 150, -24), (290, 176, 18)] {
        put!(
            svg,
            r##"<ellipse cx="{x}" cy="{y}" rx="92" ry="56" fill="{dough}" stroke="#c9954a" stroke-width="3" transform="rotate({turn} {x} {y})"/>"##
        );
        dots(
            svg,
            d,
            x,
            y,
            60,
            30,
            9,
            6,
            &["#9b5b22", "#b8772c", "#7a4a1c"],
        );
    }
    put!(
        svg,
        r##"<path d="M200 140q60-20 120 10" fill="none" stroke="#fff6c8" stroke-width="8" stroke-linecap="round" opacity=".5"/>"##
    );
    leaves(svg, d, 250, 164, 70, 40, 4);
}

fn sweet_balls(svg: &mut String, d: &mut Draws, ball: &str, syrup: &str) {
    let outside = d.pick(&[WHITE, STEEL, "#9b5a32"]);
    bowl(svg, 254, 168, 118, outside, syrup);
    let count = 2 + d.next(2) as usize;
    for &(x, y) in [(218, 150), (292, 158), (250, 212)].iter().take(count) {
        put!(
            svg,
            r##"<circle cx="{x}" cy="{y}" r="40" fill="{ball}"/><ellipse cx="{}" cy="{}" rx="14" ry="9" fill="#fff" opacity=".35"/>"##,
            x - 12,
            y - 16
        );
    }
    for _ in 0..5 {
        let (x, y, turn) = (d.int(200, 300), d.int(130, 220), d.next(180));
        put!(
            svg,
            r##"<ellipse cx="{x}" cy="{y}" rx="6" ry="2.5" fill="#7cb342" transform="rotate({turn} {x} {y})"/>"##
        );
    }
}

fn pudding(svg: &mut String, d: &mut Draws, colours: &[&str]) {
    let food = d.pick(colours);
    let outside = d.pick(&[WHITE, "#9b5a32", STEEL]);
    bowl(svg, 254, 168, 118, outside, food);
    dots(svg, d, 254, 168, 60, 54, 10, 3, &["#f7efd9", "#fff"]);
    for _ in 0..7 {
        let (x, y, turn) = (d.int(194, 314), d.int(118, 218), d.next(180));
        let nut = d.pick(&["#f1ddb3", "#7cb342", "#e6c48a"]);
        put!(
            svg,
            r##"<ellipse cx="{x}" cy="{y}" rx="9" ry="4" fill="{nut}" transform="rotate({turn} {x} {y})"/>"##
        );
    }
    for _ in 0..4 {
        let (x, y) = (d.int(200, 300), d.int(130, 210));
        put!(
            svg,
            r##"<path d="M{x} {y}l10 6" stroke="#e85d04" stroke-width="2"/>"##
        );
    }
}

fn ice_cream(svg: &mut String, d: &mut Draws) {
    let scoops = [
        d.pick(&["#f7ecd2", "#6b3a1f", "#f4a7b9", "#f5b041"]),
        d.pick(&["#a5d6a7", "#f7ecd2", "#6b3a1f", "#f4a7b9"]),
    ];
    if d.chance(5) {
        shadow(svg, 254, 286, 60, 10);
        put!(
            svg,
            r##"<path d="M204 170L254 290L304 170z" fill="#d9a45b"/><path d="M214 190L294 190M224 214L284 214M234 238L274 238M220 178L270 280M288 178L238 280" stroke="#b07a35" stroke-width="3"/>"##
        );
        put!(
            svg,
            r##"<circle cx="254" cy="154" r="52" fill="{}"/><circle cx="254" cy="98" r="44" fill="{}"/>"##,
            scoops[0],
            scoops[1]
        );
    } else {
        shadow(svg, 254, 282, 100, 14);
        put!(
            svg,
            r##"<path d="M164 170h180l-30 100H194z" fill="#fdfaf4" stroke="#e3d9c8" stroke-width="3"/><circle cx="214" cy="160" r="44" fill="{}"/><circle cx="294" cy="160" r="44" fill="{}"/><circle cx="254" cy="118" r="42" fill="{}"/>"##,
            scoops[0],
            scoops[1],
            scoops[0]
        );
    }
    put!(
        svg,
        r##"<path d="M214 124q10 20 20 0t20 4 20-4" fill="none" stroke="#5a2d14" stroke-width="7" stroke-linecap="round" opacity=".8"/><circle cx="258" cy="62" r="12" fill="#c0392b"/>"##
    );
    dots(
        svg,
        d,
        254,
        130,
        50,
        40,
        12,
        3,
        &["#e74c3c", "#f1c40f", "#3498db", "#2ecc71"],
    );
}

fn cake(svg: &mut String, d: &mut Draws) {
    plate(svg, 254, 186, 130, WHITE, "#f1ebe0");
    let (sponge, cream) = d.pick(&[
        ("#5a2d14", "#8b4a2b"),
        ("#b3262e", "#f8f1e4"),
        ("#f3dca5", "#f8f1e4"),
        ("#7b4a2d", "#f4e3c3"),
    ]);
    put!(
        svg,
        r##"<path d="M150 228L370 178V246L150 270z" fill="{sponge}"/><path d="M150 248L370 208" stroke="{cream}" stroke-width="10"/><path d="M150 228L370 178L300 110L150 176z" fill="{cream}"/><path d="M150 176L300 110L150 150z" fill="{sponge}" opacity=".9"/>"##
    );
    put!(
        svg,
        r##"<path d="M150 176L300 110" stroke="#4a2312" stroke-width="10" stroke-linecap="round"/><path d="M180 168v18M230 146v24M270 128v16" stroke="#4a2312" stroke-width="8" stroke-linecap="round"/>"##
    );
    match d.next(3) {
        0 => put!(
            svg,
            r##"<circle cx="280" cy="112" r="16" fill="#c0392b"/>"##
        ),
        1 => put!(
            svg,
            r##"<path d="M262 112q18-30 36 0q-18 24-36 0z" fill="#e74c3c"/><path d="M272 96l8 8 8-8" stroke="#2e7d32" stroke-width="4" fill="none"/>"##
        ),
        _ => dots(svg, d, 250, 140, 50, 20, 10, 3, &["#f7f1dc", "#e74c3c"]),
    }
}

fn mithai(svg: &mut String, d: &mut Draws) {
    any_plate(svg, d, 254, 168, 134);
    let ladoo = d.pick(&["#f39c12", "#e8b04a", "#d98b3a"]);
    match d.next(3) {
        0 => {
            for (x, y) in [(204, 130), (290, 124), (248, 190), (174, 208), (328, 196)] {
                put!(
                    svg,
                    r##"<circle cx="{x}" cy="{y}" r="34" fill="{ladoo}"/><circle cx="{}" cy="{}" r="9" fill="#fff" opacity=".3"/>"##,
                    x - 10,
                    y - 12
                );
                dots(svg, d, x, y, 20, 20, 7, 3, &["#c0631a", "#ffd27a"]);
            }
        }
        1 => {
            let barfi = d.pick(&["#f4f1e4", "#f7c6d0", "#cfe8b8", "#e9d6a8"]);
            for (x, y) in [(190, 120), (270, 120), (190, 196), (270, 196), (230, 158)] {
                put!(
                    svg,
                    r##"<path d="M{x} {}L{} {y}L{x} {}L{} {y}z" fill="{barfi}" stroke="#d5cbb5" stroke-width="2"/><path d="M{x} {}L{} {y}L{x} {}z" fill="#fff" opacity=".35"/>"##,
                    y - 34,
                    x + 40,
                    y + 34,
                    x - 40,
                    y - 34,
                    x + 40,
                    y - 8
                );
            }
        }
        _ => {
            for (x, y) in [(210, 140), (300, 150), (250, 214)] {
                put!(
                    svg,
                    r##"<path d="M{x} {y}m-30 0a30 30 0 1 0 30-30a20 20 0 1 0 20 20a10 10 0 1 0-10-10" fill="none" stroke="#f28c12" stroke-width="11" stroke-linecap="round"/>"##
                );
            }
        }
    }
    dots(svg, d, 250, 166, 80, 60, 6, 3, &["#7cb342", "#d8d8d8"]);
}

/// What sits on a glass.
enum Topping {
    Cream,
    Lemon,
}

fn glass(svg: &mut String, d: &mut Draws, drinks: &[&str], topping: Topping) {
    let drink = d.pick(drinks);
    shadow(svg, 254, 290, 80, 12);
    put!(
        svg,
        r##"<path d="M190 70h128l-14 214q-2 8-10 8h-80q-8 0-10-8z" fill="#eef6f8" opacity=".55"/><path d="M196 112h116l-11 168q-1 6-8 6h-78q-7 0-8-6z" fill="{drink}"/><path d="M206 120l8 150" stroke="#fff" stroke-width="6" opacity=".35"/>"##
    );
    let straw = d.pick(&["#e74c3c", "#3498db", "#27ae60", "#f1c40f"]);
    put!(
        svg,
        r##"<path d="M280 40l-20 200" stroke="{straw}" stroke-width="10" stroke-linecap="round"/><path d="M280 40l-4 40" stroke="#fff" stroke-width="10" stroke-dasharray="6 6"/>"##
    );
    match topping {
        Topping::Cream => {
            put!(
                svg,
                r##"<ellipse cx="254" cy="110" rx="62" ry="16" fill="#fdf8ec"/><circle cx="232" cy="100" r="16" fill="#fdf8ec"/><circle cx="262" cy="94" r="18" fill="#fdf8ec"/>"##
            );
            dots(
                svg,
                d,
                250,
                98,
                30,
                8,
                6,
                3,
                &["#7cb342", "#e85d04", "#6b3a1f"],
            );
        }
        Topping::Lemon => {
            put!(
                svg,
                r##"<circle cx="316" cy="76" r="28" fill="#f4d03f"/><circle cx="316" cy="76" r="22" fill="#fbe88a"/><path d="M316 54v44M294 76h44M300 60l32 32M332 60l-32 32" stroke="#f4d03f" stroke-width="2"/>"##
            );
            dots(svg, d, 254, 200, 40, 70, 6, 6, &["#fff"]);
            leaves(svg, d, 244, 118, 30, 6, 2);
        }
    }
    if d.chance(5) {
        lemon(svg, 360, 250);
    }
}

fn cup(svg: &mut String, d: &mut Draws, chai: bool) {
    if chai && d.chance(5) {
        // A kulhad: the clay cup chai is sold in.
        shadow(svg, 254, 280, 90, 14);
        put!(
            svg,
            r##"<path d="M176 120h156l-22 150q-2 10-12 10h-88q-10 0-12-10z" fill="#b5562d"/><ellipse cx="254" cy="120" rx="78" ry="18" fill="#9a4524"/><ellipse cx="254" cy="122" rx="68" ry="13" fill="#c88a4e"/><path d="M196 150h116" stroke="#d9854f" stroke-width="5" opacity=".6"/>"##
        );
        steam(svg, &[234, 274], 96);
        return;
    }
    plate(svg, 254, 176, 118, WHITE, "#f1ebe0");
    let outside = d.pick(&[WHITE, "#2f6f8f", "#c0392b", "#f4f1e4", "#3b3b3b"]);
    let drink = if chai {
        d.pick(&["#b5763a", "#c48b5a", "#8b5a2b"])
    } else {
        d.pick(&["#8b5a2b", "#6b3a1f", "#c48b5a"])
    };
    put!(
        svg,
        r##"<path d="M336 150a26 22 0 1 1 0 44" fill="none" stroke="{outside}" stroke-width="12"/><circle cx="254" cy="172" r="84" fill="{outside}"/><circle cx="254" cy="172" r="70" fill="{drink}"/>"##
    );
    if !chai {
        put!(
            svg,
            r##"<path d="M254 206c-40-26-44-60-20-64q14-2 20 14q6-16 20-14c24 4 20 38-20 64z" fill="#f6ecd9"/>"##
        );
    } else {
        put!(
            svg,
            r##"<ellipse cx="240" cy="160" rx="30" ry="14" fill="#e0b98a" opacity=".6"/>"##
        );
    }
    put!(
        svg,
        r##"<rect x="96" y="130" width="30" height="60" rx="6" fill="#d9a45b"/><rect x="80" y="190" width="40" height="40" rx="8" fill="#c98a3a" transform="rotate(20 100 210)"/>"##
    );
    steam(svg, &[234, 274], 100);
}
