//! Pictures of a distribution: a PNG bar chart (plotters' bitmap backend,
//! an embedded DejaVu Sans, the `png` crate), its alt text, and a text
//! histogram of Unicode blocks for terminals.
//!
//! Nothing here reads system fonts or the network, so a chart looks the
//! same on every machine.

use std::sync::Once;

use dice_core::Odds;

use crate::i18n::{self, Lang};
use plotters::prelude::*;
use plotters::style::FontStyle;

/// DejaVu Sans, unmodified; its licence is `assets/DejaVuSans-LICENSE.txt`.
static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
const FAMILY: &str = "dejavu-sans";
const WIDTH: u32 = 800;
const HEIGHT: u32 = 400;
/// Values whose chance is below this at the ends of the range are left out.
const TRIM: f64 = 5e-5;
/// An exact mean longer than this (`p/q`) is left to `--json`.
const MAX_EXACT_CHARS: usize = 12;
/// More bars than this are grouped into ranges of values.
const MAX_BARS: usize = 120;

/// What a bar shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// P(total = v).
    Exactly,
    /// P(total >= v).
    AtLeast,
    /// P(total <= v).
    AtMost,
}

impl View {
    pub const ALL: [View; 3] = [View::Exactly, View::AtLeast, View::AtMost];

    /// The view's name (`exactly`, `at least`, `at most`): its button and what the
    /// chart's axis says.
    pub fn label(self, lang: Lang) -> String {
        i18n::tr_args(lang, "odds-view", &[("view", self.key().into())])
    }

    pub fn key(self) -> &'static str {
        match self {
            View::Exactly => "eq",
            View::AtLeast => "ge",
            View::AtMost => "le",
        }
    }

    pub fn from_key(key: &str) -> Option<View> {
        View::ALL.into_iter().find(|view| view.key() == key)
    }
}

/// What a chance is asked about: reaching a total (`15`, `>=15`), or staying at or
/// under one, as roll-under games ask (`<=5`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Target {
    AtLeast(i64),
    AtMost(i64),
}

impl Target {
    /// `15`, `>=15` or `≥15` (at least); `<=5` or `≤5` (at most). Spaces may stand
    /// around the sign.
    pub fn parse(text: &str) -> Option<Target> {
        let text = text.trim();
        let (side, number): (fn(i64) -> Target, &str) = if let Some(rest) =
            text.strip_prefix("<=").or_else(|| text.strip_prefix('≤'))
        {
            (Target::AtMost, rest)
        } else if let Some(rest) = text.strip_prefix(">=").or_else(|| text.strip_prefix('≥')) {
            (Target::AtLeast, rest)
        } else {
            (Target::AtLeast, text)
        };
        number.trim().parse().ok().map(side)
    }

    /// The total the target names.
    pub fn value(self) -> i64 {
        match self {
            Target::AtLeast(value) | Target::AtMost(value) => value,
        }
    }

    /// The chance of the target's side, exactly.
    pub fn chance(self, odds: &Odds) -> dice_core::BigRational {
        match self {
            Target::AtLeast(value) => odds.at_least(value),
            Target::AtMost(value) => odds.at_most(value),
        }
    }

    /// `≥ 15` or `≤ 5`, as the summary and the chart write it.
    pub fn condition(self) -> String {
        match self {
            Target::AtLeast(value) => format!("≥ {value}"),
            Target::AtMost(value) => format!("≤ {value}"),
        }
    }

    /// The side a chart of `view` shades: the target's own, except in the cumulative
    /// view that measures the other side, where it is the complement (at most 14 for
    /// at least 15). Either way the bar beside the line reads the chance its label
    /// gives, and the line stays where it is.
    pub fn shown_in(self, view: View) -> Target {
        match (view, self) {
            (View::AtLeast, Target::AtMost(value)) => Target::AtLeast(value.saturating_add(1)),
            (View::AtMost, Target::AtLeast(value)) => Target::AtMost(value.saturating_sub(1)),
            _ => self,
        }
    }

    /// Whether every total of `bar` is on the target's side.
    fn covers(self, bar: &Bar) -> bool {
        match self {
            Target::AtLeast(value) => bar.low >= value,
            Target::AtMost(value) => bar.high <= value,
        }
    }

    /// Where the target's side begins, between two totals.
    fn boundary(self) -> f64 {
        match self {
            Target::AtLeast(value) => value as f64 - 0.5,
            Target::AtMost(value) => value as f64 + 0.5,
        }
    }
}

/// `15` or `<=5`: what [`Target::parse`] reads back (in custom ids and `--target`).
impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::AtLeast(value) => write!(f, "{value}"),
            Target::AtMost(value) => write!(f, "<={value}"),
        }
    }
}

/// One bar: the values it covers and its probability.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    pub low: i64,
    pub high: i64,
    pub probability: f64,
}

impl Bar {
    pub fn label(&self) -> String {
        if self.low == self.high {
            self.low.to_string()
        } else {
            format!("{}–{}", self.low, self.high)
        }
    }
}

/// The bars of a view, trimmed to where the probability lies and grouped
/// when there are too many values.
pub fn bars(odds: &Odds, view: View) -> Vec<Bar> {
    let points: Vec<(i64, f64)> = odds
        .outcomes()
        .iter()
        .map(|(value, p)| (*value, dice_core::to_f64(p)))
        .collect();
    let first = points.iter().position(|(_, p)| *p >= TRIM).unwrap_or(0);
    let last = points
        .iter()
        .rposition(|(_, p)| *p >= TRIM)
        .unwrap_or(points.len().saturating_sub(1));
    let Some(window) = points.get(first..=last) else {
        return Vec::new();
    };
    let (low, high) = (window[0].0, window[window.len() - 1].0);
    let span = (i128::from(high) - i128::from(low) + 1) as u128;
    let width = span.div_ceil(MAX_BARS as u128).max(1) as i128;
    // Cumulative figures over every outcome, trimmed ones included.
    let below: f64 = points[..first].iter().map(|(_, p)| p).sum();
    let total: f64 = points.iter().map(|(_, p)| p).sum();
    let mut bars: Vec<Bar> = Vec::new();
    let mut at_most = below;
    for &(value, p) in window {
        let start = low as i128 + ((value as i128 - low as i128) / width) * width;
        let start = start as i64;
        let end = (start as i128 + width - 1).min(high as i128) as i64;
        let exact_before = at_most;
        at_most += p;
        match bars.last_mut() {
            Some(bar) if bar.low == start => {
                bar.high = end;
                match view {
                    View::Exactly => bar.probability += p,
                    View::AtMost => bar.probability = at_most,
                    View::AtLeast => {}
                }
            }
            _ => bars.push(Bar {
                low: start,
                high: end,
                probability: match view {
                    View::Exactly => p,
                    View::AtMost => at_most,
                    View::AtLeast => total - exact_before,
                },
            }),
        }
    }
    if view == View::AtLeast {
        let tail = dice_core::to_f64(odds.tail());
        for bar in &mut bars {
            bar.probability += tail;
        }
    }
    bars
}

/// Alt text: what the chart shows, in words.
pub fn alt_text(lang: Lang, expr: &str, odds: &Odds, view: View) -> String {
    let bars = bars(odds, view);
    let peak = bars
        .iter()
        .max_by(|a, b| a.probability.total_cmp(&b.probability));
    let low = bars.first().map_or(0, |b| b.low).to_string();
    let high = bars.last().map_or(0, |b| b.high).to_string();
    let args = [
        ("expr", expr.into()),
        ("view", view.key().into()),
        ("low", low.into()),
        ("high", high.into()),
    ];
    match (view, peak) {
        (View::Exactly, Some(peak)) => {
            let mut args = args.to_vec();
            args.push(("peak", peak.label().into()));
            args.push(("percent", percent_in(lang, peak.probability).into()));
            i18n::tr_args(lang, "odds-alt-text-peak", &args)
        }
        _ => i18n::tr_args(lang, "odds-alt-text", &args),
    }
}

/// `12.50 %`, as terminals show it.
pub fn percent(probability: f64) -> String {
    percent_in(Lang::En, probability)
}

/// `12.50 %` (`12,50 %`): a chance with two decimals, in `lang`'s digits.
pub fn percent_in(lang: Lang, probability: f64) -> String {
    i18n::tr_args(
        lang,
        "odds-percent",
        &[("percent", (probability * 100.0).into())],
    )
}

/// Labels every `step`-th bar so that labels never crowd or repeat.
fn label_step(bars: &[Bar]) -> usize {
    let longest = bars
        .iter()
        .map(|b| b.label().chars().count())
        .max()
        .unwrap_or(1);
    // About 8 pixels a character plus a gap, on ~720 usable pixels.
    let fits = (720 / (longest * 8 + 10)).max(1);
    bars.len().div_ceil(fits).max(1)
}

fn register_font() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        if plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).is_err() {
            tracing::error!("the embedded chart font does not load");
        }
    });
}

/// What the chart marks besides its bars: the mean, and the side of the target the
/// view shades ([`Target::shown_in`]) with its chance.
#[derive(Debug, Clone, Copy)]
struct Marks {
    mean: f64,
    target: Option<(Target, f64)>,
}

/// A rectangle on the chart, in pixels: its top left corner and its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Area {
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
}

impl Area {
    pub fn overlaps(&self, other: &Area) -> bool {
        self.x < other.x + other.width
            && other.x < self.x + self.width
            && self.y < other.y + other.height
            && other.y < self.y + self.height
    }

    pub fn contains(&self, other: &Area) -> bool {
        self.x <= other.x
            && self.y <= other.y
            && other.x + other.width <= self.x + self.width
            && other.y + other.height <= self.y + self.height
    }

    /// Whether a vertical line at `x` runs through the rectangle.
    pub fn crosses(&self, x: i32) -> bool {
        self.x <= x && x < self.x + self.width
    }
}

/// A line on the chart and its label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// The line's x, in pixels.
    pub line: i32,
    pub text: String,
    pub label: Area,
}

/// Where a chart put its marks: the plotting area, the mean and the target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub plot: Area,
    pub mean: Option<Mark>,
    pub target: Option<Mark>,
}

/// The chart as PNG bytes: the bars of `view`, axis titles, the mean as a dashed line,
/// and with a `target` the bars of its side shaded, a line where they start and the
/// chance written on the chart.
pub fn png(
    lang: Lang,
    expr: &str,
    odds: &Odds,
    view: View,
    target: Option<Target>,
) -> Result<Vec<u8>, String> {
    let (pixels, _) = render(lang, expr, odds, view, target)?;
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, WIDTH, HEIGHT);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer
        .write_image_data(&pixels)
        .map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// Where [`png`] puts the lines and labels of the same chart.
pub fn layout(
    lang: Lang,
    expr: &str,
    odds: &Odds,
    view: View,
    target: Option<Target>,
) -> Result<Layout, String> {
    render(lang, expr, odds, view, target).map(|(_, layout)| layout)
}

/// The chart's RGB pixels and where its marks went.
fn render(
    lang: Lang,
    expr: &str,
    odds: &Odds,
    view: View,
    target: Option<Target>,
) -> Result<(Vec<u8>, Layout), String> {
    register_font();
    let bars = bars(odds, view);
    let marks = Marks {
        mean: odds.mean_f64(),
        target: target.map(|target| {
            let shown = target.shown_in(view);
            (shown, dice_core::to_f64(&shown.chance(odds)))
        }),
    };
    let mut pixels = vec![255u8; (WIDTH * HEIGHT * 3) as usize];
    let layout = draw(lang, expr, &bars, view, marks, &mut pixels).map_err(|e| e.to_string())?;
    Ok((pixels, layout))
}

/// Where `value` falls on the bar axis, in bars from the first bar's centre (the
/// chart's segments are one bar wide).
fn bar_position(bars: &[Bar], value: f64) -> Option<f64> {
    let index = bars.iter().position(|bar| value <= bar.high as f64 + 0.5)?;
    let bar = &bars[index];
    let width = (bar.high - bar.low + 1) as f64;
    let into = (value - (bar.low as f64 - 0.5)) / width;
    Some(index as f64 + into.clamp(0.0, 1.0) - 0.5)
}

/// A label to place: its line's x and its size.
#[derive(Debug, Clone, Copy)]
struct Pending {
    line: i32,
    width: i32,
    height: i32,
}

/// Gap between a line and its label, and between rows of labels.
const LABEL_GAP: i32 = 6;

/// The places a label may take in the row at `y`, best first: beside its line on the
/// side away from the `other` line (so it does not run over it), then the near side;
/// a side without room in `plot` is left out, and with neither the label is pushed in.
fn label_places(plot: Area, label: Pending, other: Option<i32>, y: i32) -> Vec<Area> {
    let at = |x: i32| Area {
        x,
        y,
        width: label.width,
        height: label.height,
    };
    let right = at(label.line + LABEL_GAP);
    let left = at(label.line - LABEL_GAP - label.width);
    let sides = match other {
        Some(other) if other > label.line => [left, right],
        _ => [right, left],
    };
    let fitting: Vec<Area> = sides
        .into_iter()
        .filter(|place| plot.contains(place))
        .collect();
    if !fitting.is_empty() {
        return fitting;
    }
    let pushed_in = (label.line + LABEL_GAP)
        .min(plot.x + plot.width - label.width)
        .max(plot.x);
    vec![at(pushed_in)]
}

/// Places the target's label and the mean's at the top of `plot`: each beside its
/// line, neither over the other nor across the other's line where a place allows;
/// the first row holds both when it can, else the mean's goes a row lower.
fn place_labels(
    plot: Area,
    target: Option<Pending>,
    mean: Option<Pending>,
) -> (Option<Area>, Option<Area>) {
    let first_row = plot.y + LABEL_GAP;
    let tallest = target
        .map_or(0, |t| t.height)
        .max(mean.map_or(0, |m| m.height));
    let second_row = first_row + tallest + LABEL_GAP;
    let places = |label: Option<Pending>, other: Option<Pending>| -> Vec<Area> {
        let Some(label) = label else {
            return Vec::new();
        };
        let other = other.map(|other| other.line);
        let mut places = label_places(plot, label, other, first_row);
        places.extend(label_places(plot, label, other, second_row));
        places
    };
    let (target_places, mean_places) = (places(target, mean), places(mean, target));
    let (Some(target), Some(mean)) = (target, mean) else {
        return (target_places.first().copied(), mean_places.first().copied());
    };
    let mut pairs: Vec<(usize, Area, Area)> = Vec::new();
    for (t_rank, t_place) in target_places.iter().enumerate() {
        for (m_rank, m_place) in mean_places.iter().enumerate() {
            pairs.push((t_rank + m_rank, *t_place, *m_place));
        }
    }
    // A stable sort keeps the target's better places first among equal ranks.
    pairs.sort_by_key(|(rank, _, _)| *rank);
    let apart = |t: &Area, m: &Area| !t.overlaps(m);
    let clear = |t: &Area, m: &Area| !t.crosses(mean.line) && !m.crosses(target.line);
    let chosen = pairs
        .iter()
        .find(|(_, t, m)| apart(t, m) && clear(t, m))
        .or_else(|| pairs.iter().find(|(_, t, m)| apart(t, m)))
        .map(|(_, t, m)| (*t, *m));
    match chosen {
        Some((t, m)) => (Some(t), Some(m)),
        // Out of room in both rows: the mean's label goes below the target's.
        None => {
            let t = target_places[0];
            let m = Area {
                y: t.y + t.height + LABEL_GAP,
                ..mean_places[0]
            };
            (Some(t), Some(m))
        }
    }
}

fn draw(
    lang: Lang,
    expr: &str,
    bars: &[Bar],
    view: View,
    marks: Marks,
    pixels: &mut [u8],
) -> Result<Layout, Box<dyn std::error::Error>> {
    let root = BitMapBackend::with_buffer(pixels, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let top = bars.iter().map(|b| b.probability).fold(0.0, f64::max);
    // Room above the tallest bar for two rows of labels.
    let y_max = (top * 1.2).max(1e-9);
    let step = label_step(bars);
    // Enough decimals that neighbouring y labels (about y_max / 5 apart)
    // differ.
    let decimals = (-(y_max * 20.0).log10()).ceil().clamp(0.0, 6.0) as usize;
    let labels: Vec<String> = bars.iter().map(Bar::label).collect();
    let count = bars.len().max(1);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            i18n::tr_args(
                lang,
                "odds-chart-caption",
                &[("expr", expr.into()), ("view", view.key().into())],
            ),
            (FAMILY, 20),
        )
        .margin(12)
        .x_label_area_size(50)
        .y_label_area_size(76)
        .build_cartesian_2d((0..count - 1).into_segmented(), 0f64..y_max)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(count + 1)
        .x_label_formatter(&|x: &SegmentValue<usize>| match x {
            // Labels sit at bar centres only, every `step`-th bar.
            SegmentValue::CenterOf(index) if index % step == 0 => {
                labels.get(*index).cloned().unwrap_or_default()
            }
            _ => String::new(),
        })
        .y_labels(6)
        .y_label_formatter(&|y: &f64| axis_percent(lang, y * 100.0, decimals))
        .x_desc(i18n::tr(lang, "odds-chart-total"))
        .y_desc(i18n::tr_args(
            lang,
            "odds-chart-chance",
            &[("view", view.label(lang).into())],
        ))
        .axis_desc_style((FAMILY, 15))
        .label_style((FAMILY, 14))
        .draw()?;
    let colour = RGBColor(70, 110, 190);
    // The bars of the target's side are shaded apart: the region the chance is about.
    let reaching = RGBColor(220, 120, 40);
    let shaded = |bar: &Bar| marks.target.is_some_and(|(target, _)| target.covers(bar));
    chart.draw_series(
        Histogram::vertical(&chart)
            .style_func(|index, _| {
                if bars.get(*index_of(index)).is_some_and(shaded) {
                    reaching.filled()
                } else {
                    colour.filled()
                }
            })
            .margin(2)
            .data(
                bars.iter()
                    .enumerate()
                    .map(|(index, bar)| (index, bar.probability)),
            ),
    )?;
    // Vertical lines in pixels: the segmented axis has no positions between centres.
    let (left, _) = chart.backend_coord(&(SegmentValue::CenterOf(0), 0.0));
    let (right, bottom) = chart.backend_coord(&(SegmentValue::CenterOf(count - 1), 0.0));
    let (_, top_pixel) = chart.backend_coord(&(SegmentValue::CenterOf(0), y_max));
    let (x_range, y_range) = chart.plotting_area().get_pixel_range();
    let plot = Area {
        x: x_range.start,
        y: y_range.start,
        width: x_range.end - x_range.start,
        height: y_range.end - y_range.start,
    };
    let bar_pixels = if count > 1 {
        f64::from(right - left) / (count - 1) as f64
    } else {
        f64::from(WIDTH) / 2.0
    };
    let x_at = |position: f64| left + (position * bar_pixels).round() as i32;
    let mean_style = (FAMILY, 14).into_font().color(&BLACK);
    let target_style = (FAMILY, 16).into_font().color(&reaching);
    let mean = bar_position(bars, marks.mean).map(|position| {
        let text = i18n::tr_args(lang, "odds-chart-mean", &[("mean", marks.mean.into())]);
        (x_at(position), text)
    });
    let target = marks.target.map(|(target, chance)| {
        let line = bar_position(bars, target.boundary()).map(x_at);
        let text = format!("{}: {}", target.condition(), percent_in(lang, chance));
        (line, text)
    });
    let pending = |line: i32, text: &str, style: &TextStyle| -> Result<Pending, String> {
        let (width, height) = root
            .estimate_text_size(text, style)
            .map_err(|e| e.to_string())?;
        Ok(Pending {
            line,
            width: i32::try_from(width).unwrap_or(i32::MAX),
            height: i32::try_from(height).unwrap_or(i32::MAX),
        })
    };
    let mean_pending = match &mean {
        Some((line, text)) => Some(pending(*line, text, &mean_style)?),
        None => None,
    };
    let target_pending = match &target {
        // A target past every bar has its label at the right end.
        Some((line, text)) => Some(pending(line.unwrap_or(right), text, &target_style)?),
        None => None,
    };
    let (target_label, mean_label) = place_labels(plot, target_pending, mean_pending);
    let mut layout = Layout {
        plot,
        mean: None,
        target: None,
    };
    if let (Some((x, text)), Some(label)) = (mean, mean_label) {
        let dashes = (top_pixel..bottom).step_by(8).map(|y| {
            PathElement::new(
                vec![(x, y), (x, (y + 4).min(bottom))],
                BLACK.stroke_width(2),
            )
        });
        for dash in dashes {
            root.draw(&dash)?;
        }
        root.draw(&Text::new(text.clone(), (label.x, label.y), mean_style))?;
        layout.mean = Some(Mark {
            line: x,
            text,
            label,
        });
    }
    if let (Some((line, text)), Some(label)) = (target, target_label) {
        if let Some(x) = line {
            root.draw(&PathElement::new(
                vec![(x, top_pixel), (x, bottom)],
                reaching.stroke_width(2),
            ))?;
        }
        root.draw(&Text::new(text.clone(), (label.x, label.y), target_style))?;
        layout.target = Some(Mark {
            line: line.unwrap_or(right),
            text,
            label,
        });
    }
    root.present()?;
    Ok(layout)
}

/// A y label: `12.5 %` with `decimals` digits, the decimal point as `lang` writes it.
fn axis_percent(lang: Lang, percent: f64, decimals: usize) -> String {
    let text = format!("{percent:.decimals$} %");
    match lang {
        Lang::En => text,
        Lang::De => text.replace('.', ","),
    }
}

/// The bar index of a histogram segment.
fn index_of(segment: &SegmentValue<usize>) -> &usize {
    match segment {
        SegmentValue::Exact(index) | SegmentValue::CenterOf(index) => index,
        SegmentValue::Last => &0,
    }
}

/// A text histogram, one line a bar: `15 │████▌ 5.00 %`.
pub fn text_histogram(lang: Lang, odds: &Odds, view: View, width: usize) -> String {
    let bars = bars(odds, view);
    let top = bars
        .iter()
        .map(|b| b.probability)
        .fold(0.0, f64::max)
        .max(1e-12);
    let label_width = bars
        .iter()
        .map(|b| b.label().chars().count())
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for bar in &bars {
        let eighths = (bar.probability / top * (width * 8) as f64).round() as usize;
        let mut blocks = "█".repeat(eighths / 8);
        if !eighths.is_multiple_of(8) {
            blocks.push(['▏', '▎', '▍', '▌', '▋', '▊', '▉'][eighths % 8 - 1]);
        }
        out.push_str(&format!(
            "{:>label_width$} │{blocks} {}\n",
            bar.label(),
            percent_in(lang, bar.probability)
        ));
    }
    out
}

/// Whether the summary leaves the exact mean out (too many digits to read at a
/// glance), so that a front end offers it on request ([`exact_text`]).
pub fn exact_mean_is_long(odds: &Odds) -> bool {
    odds.mean().to_string().len() > MAX_EXACT_CHARS
}

/// The exact figures behind the summary's decimals: the mean, the variance (the
/// standard deviation is its square root, rarely a fraction) and the chance to
/// reach `target`.
pub fn exact_text(lang: Lang, expr: &str, odds: &Odds, target: Option<Target>) -> String {
    let mut text = i18n::tr_args(
        lang,
        "odds-exact-text",
        &[
            ("expr", expr.into()),
            ("mean", odds.mean().to_string().into()),
            ("variance", odds.variance().to_string().into()),
        ],
    );
    text.push('\n');
    if let Some(target) = target {
        text.push_str(&format!(
            "P({expr} {}) = {}\n",
            target.condition(),
            target.chance(odds)
        ));
    }
    text
}

/// The lines every front end shows: mean, sd, range, and the chance to
/// reach `target` when one is given. `heading`, when given, names the roll in the
/// first line instead of `expr` (what was asked and whose fields it used).
pub fn summary(
    lang: Lang,
    heading: Option<&str>,
    expr: &str,
    odds: &Odds,
    target: Option<Target>,
) -> String {
    // The exact mean only while it reads at a glance (`--json` has it always).
    let exact = odds.mean().to_string();
    let args = [
        ("expr", heading.unwrap_or(expr).into()),
        ("mean", odds.mean_f64().into()),
        ("exact", exact.clone().into()),
        ("sd", odds.sd().into()),
        ("min", odds.min().to_string().into()),
        ("max", odds.max().to_string().into()),
    ];
    let mut text = if exact.len() <= MAX_EXACT_CHARS {
        i18n::tr_args(lang, "odds-summary-exact", &args)
    } else {
        i18n::tr_args(lang, "odds-summary", &args)
    };
    text.push('\n');
    if let Some(target) = target {
        let chance = dice_core::to_f64(&target.chance(odds));
        text.push_str(&format!(
            "{expr} {}: {}\n",
            target.condition(),
            percent_in(lang, chance)
        ));
    }
    if !num_traits::Zero::is_zero(odds.tail()) {
        let left_out = format!("{:.1e}", dice_core::to_f64(odds.tail()));
        let left_out = match lang {
            Lang::En => left_out,
            Lang::De => left_out.replace('.', ","),
        };
        text.push_str(&i18n::tr_args(
            lang,
            "odds-summary-tail",
            &[("left_out", left_out.into())],
        ));
        text.push('\n');
    }
    text
}
