fn slide(sq: i32, occ: u64, dirs: &[(i32,i32)]) -> u64 {
    let mut a = 0u64;
    for &(df, dr) in dirs { let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) { let s = r*8+f; a |= 1<<s; if occ & (1<<s) != 0 { break; } f += df; r += dr; } }
    a
}
fn mask(sq: i32, dirs: &[(i32,i32)]) -> u64 {
    let mut a = 0u64;
    for &(df, dr) in dirs { let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while (0..8).contains(&(f+df)) && (0..8).contains(&(r+dr)) { a |= 1<<(r*8+f); f += df; r += dr; } }
    a
}
fn main() {
    let rook = [(1,0),(-1,0),(0,1),(0,-1)]; let bishop = [(1,1),(1,-1),(-1,1),(-1,-1)];
    let mut s: u64 = 0x9E3779B97F4A7C15;
    let mut rnd = || { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s };
    for (name, dirs) in [("ROOK", &rook), ("BISHOP", &bishop)] {
        print!("pub(crate) const {name}_MAGICS: [u64; 64] = [");
        for sq in 0..64 {
            let m = mask(sq, dirs); let bits = m.count_ones(); let n = 1usize << bits;
            let mut occs = vec![]; let mut sub = 0u64; loop { occs.push((sub, slide(sq, sub, dirs))); sub = sub.wrapping_sub(m) & m; if sub == 0 { break; } }
            assert_eq!(occs.len(), n);
            let mut table = vec![0u64; n]; let mut used = vec![0u32; n]; let mut gen = 0u32;
            loop {
                let magic = rnd() & rnd() & rnd();
                if ((m.wrapping_mul(magic)) >> 56).count_ones() < 6 { continue; }
                gen += 1; let mut ok = true;
                for &(o, a) in &occs { let i = (o.wrapping_mul(magic) >> (64 - bits)) as usize;
                    if used[i] != gen { used[i] = gen; table[i] = a; } else if table[i] != a { ok = false; break; } }
                if ok { print!("0x{magic:016X}, "); break; }
            }
        }
        println!("];");
    }
}
