fn main() { println!("guoxiang"); }
