//! `sqlx::migrate!` embeds `../migrations` at compile time; a new migration file must
//! rebuild the binary.

fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
