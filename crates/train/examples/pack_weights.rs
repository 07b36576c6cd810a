//! Rewrites a gen3 weights file with the compact payload (or raw with `--raw`), checks that
//! the result reads back to the same weights, and prints both sizes.
//!
//! `cargo run --release -p virada-train --example pack_weights -- <in.vpw> <out.vpw> [--raw]`
use virada_engine::eval::gen3::weights::Gen3Weights;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, rest @ ..] = args.as_slice() else {
        return Err("usage: pack_weights <in.vpw> <out.vpw> [--raw]".into());
    };
    let bytes = std::fs::read(input).map_err(|e| format!("{input}: {e}"))?;
    let w = Gen3Weights::from_bytes(&bytes).map_err(|e| format!("{input}: {e}"))?;
    let out = if rest.iter().any(|a| a == "--raw") {
        w.to_bytes()
    } else {
        w.to_bytes_compact()
            .ok_or("the weights do not respect the pattern ties; use --raw")?
    };
    let back = Gen3Weights::from_bytes(&out).map_err(|e| format!("written file: {e}"))?;
    if back != w {
        return Err("the written file does not read back to the same weights".into());
    }
    let nonzero = w.weights.iter().filter(|&&x| x != 0).count();
    std::fs::write(output, &out).map_err(|e| format!("{output}: {e}"))?;
    println!(
        "{input}: {} bytes -> {output}: {} bytes ({} of {} entries non-zero, {} representative \
         entries a phase, {} units per disc)",
        bytes.len(),
        out.len(),
        nonzero,
        w.weights.len(),
        virada_engine::eval::gen3::compact::representatives().len(),
        w.units_per_disc
    );
    Ok(())
}
