//! A fast, well-mixed 64-bit hash of a board, for transposition tables.

/// Hashes the two bitboards. Not cryptographic: tables must still verify the stored board.
#[inline]
pub fn hash_board(player: u64, opponent: u64) -> u64 {
    // Two independent multiplicative mixes folded together; a final xor-shift-multiply spreads
    // the high bits (where multiplication concentrates entropy) into the low bits used as index.
    let a = player.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let b = opponent.rotate_left(23).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    let mut h = a ^ b ^ (a >> 29) ^ (b >> 31);
    h = (h ^ (h >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 32)
}
