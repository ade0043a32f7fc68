//! Positions written as short byte strings, so the interner stores each
//! one in a few bytes instead of a tree of shared values.
//!
//! Every value starts with a tag byte. Natural numbers below 128 are the
//! tag itself (heaps and piles are small), and strings whose characters
//! have small codes take one, two or four bits a character (a board of 20
//! cells of "." and "X" fits in three bytes). The codes are given to ASCII
//! characters in the order they are first seen and never change, so a
//! value is always written the same way and the bytes can stand for it.

use super::positions::PosId;
use super::value::Value;
use std::sync::Arc;

const INT: u8 = 0x80;
const FALSE: u8 = 0x81;
const TRUE: u8 = 0x82;
const STR: u8 = 0x83;
/// A string of codes, 1, 2 or 4 bits each: `PACKED + log2(bits)`.
const PACKED: u8 = 0x84;
const LIST: u8 = 0x87;
const SET: u8 = 0x88;
const TUPLE: u8 = 0x89;
const RANGE: u8 = 0x8a;
const POS: u8 = 0x8b;

/// How many characters can have a code: four bits' worth.
const CODES: usize = 16;

#[derive(Clone, Debug, Default)]
pub struct Packer {
    /// The character of each code.
    chars: Vec<u8>,
    /// The code of each ASCII character, or `NONE`.
    codes: Option<Box<[u8; 128]>>,
}

const NONE: u8 = u8::MAX;

impl Packer {
    /// Appends the bytes of `values` to `out`.
    pub fn write(&mut self, values: &[Value], out: &mut Vec<u8>) {
        for v in values {
            self.value(v, out);
        }
    }

    fn value(&mut self, v: &Value, out: &mut Vec<u8>) {
        match v {
            Value::Int(n) => write_int(*n, out),
            Value::Bool(b) => out.push(if *b { TRUE } else { FALSE }),
            Value::Str(s) => self.string(s, out),
            Value::List(xs) | Value::Set(xs) | Value::Tuple(xs) => {
                out.push(match v {
                    Value::List(_) => LIST,
                    Value::Set(_) => SET,
                    _ => TUPLE,
                });
                varint(xs.len() as u64, out);
                self.write(xs, out);
            }
            Value::Range(lo, hi) => {
                out.push(RANGE);
                varint(zigzag(*lo), out);
                varint(zigzag(*hi), out);
            }
            Value::Pos(ids) => {
                out.push(POS);
                varint(ids.len() as u64, out);
                for &id in ids.iter() {
                    varint(u64::from(id), out);
                }
            }
        }
    }

    /// Appends the bytes of a string.
    pub fn string(&mut self, s: &str, out: &mut Vec<u8>) {
        let Some(widest) = self.widest_code(s) else {
            out.push(STR);
            varint(s.len() as u64, out);
            out.extend_from_slice(s.as_bytes());
            return;
        };
        let Some(codes) = self.codes.as_deref() else {
            // Only the empty string has no characters to give codes to.
            out.push(PACKED);
            out.push(0);
            return;
        };
        // The width depends only on the string's own characters, whose
        // codes never change: the same string always packs the same way.
        let shift = match widest {
            0..=1 => 0,
            2..=3 => 1,
            _ => 2,
        };
        let bits = 1usize << shift;
        out.push(PACKED + shift as u8);
        varint(s.len() as u64, out);
        // Gathered a word at a time (the codes fill bytes low bits first,
        // so a word's little-endian bytes are the bytes in order).
        let mut word = 0u64;
        let mut used = 0;
        for b in s.bytes() {
            word |= u64::from(codes[b as usize]) << used;
            used += bits;
            if used == 64 {
                out.extend_from_slice(&word.to_le_bytes());
                word = 0;
                used = 0;
            }
        }
        out.extend_from_slice(&word.to_le_bytes()[..used.div_ceil(8)]);
    }

    /// The largest code among a string's characters, giving codes to new
    /// ones while there is room; `None` when one cannot have a code.
    fn widest_code(&mut self, s: &str) -> Option<u8> {
        if let Some(codes) = self.codes.as_deref() {
            // Nearly always every character has its code already. A
            // character without one (or not ASCII) counts as `NONE`, the
            // largest byte, and sends us the slow way; no branch per
            // character, since every board of a search comes through here.
            let widest = s
                .bytes()
                .map(|b| codes[usize::from(b & 0x7f)] | if b.is_ascii() { 0 } else { NONE })
                .fold(0, u8::max);
            if widest != NONE {
                return Some(widest);
            }
        }
        let mut widest = 0;
        for b in s.bytes() {
            widest = widest.max(self.code(b)?);
        }
        Some(widest)
    }

    /// The code of an ASCII character, given one if there is room.
    fn code(&mut self, b: u8) -> Option<u8> {
        if !b.is_ascii() {
            return None;
        }
        let codes = self.codes.get_or_insert_with(|| Box::new([NONE; 128]));
        if codes[b as usize] == NONE {
            if self.chars.len() == CODES {
                return None;
            }
            codes[b as usize] = self.chars.len() as u8;
            self.chars.push(b);
        }
        Some(codes[b as usize])
    }

    /// The values written as `bytes`.
    pub fn read(&self, bytes: &[u8]) -> Vec<Value> {
        let mut values = Vec::new();
        self.read_into(bytes, &mut values);
        values
    }

    /// The same, appended to `out`.
    pub fn read_into(&self, bytes: &[u8], out: &mut Vec<Value>) {
        let mut at = 0;
        while at < bytes.len() {
            out.push(self.read_value(bytes, &mut at));
        }
    }

    fn read_value(&self, bytes: &[u8], at: &mut usize) -> Value {
        let tag = bytes[*at];
        *at += 1;
        match tag {
            0..INT => Value::Int(i64::from(tag)),
            INT => Value::Int(unzigzag(read_varint(bytes, at))),
            FALSE => Value::Bool(false),
            TRUE => Value::Bool(true),
            STR => {
                let len = read_varint(bytes, at) as usize;
                let s = String::from_utf8_lossy(&bytes[*at..*at + len]);
                *at += len;
                Value::Str(Arc::from(s.as_ref()))
            }
            LIST | SET | TUPLE => {
                let len = read_varint(bytes, at) as usize;
                let items: Vec<Value> = (0..len).map(|_| self.read_value(bytes, at)).collect();
                match tag {
                    LIST => Value::List(items.into()),
                    SET => Value::Set(items.into()),
                    _ => Value::Tuple(items.into()),
                }
            }
            RANGE => {
                let lo = unzigzag(read_varint(bytes, at));
                let hi = unzigzag(read_varint(bytes, at));
                Value::Range(lo, hi)
            }
            POS => {
                let len = read_varint(bytes, at) as usize;
                let ids: Vec<PosId> = (0..len).map(|_| read_varint(bytes, at) as PosId).collect();
                Value::Pos(ids.into())
            }
            PACKED..LIST => {
                let bits = 1usize << (tag - PACKED);
                let len = read_varint(bytes, at) as usize;
                let mask = (1u8 << bits) - 1;
                let mut s = String::with_capacity(len);
                for i in 0..len {
                    let bit = i * bits;
                    let code = (bytes[*at + bit / 8] >> (bit % 8)) & mask;
                    s.push(char::from(self.chars[code as usize]));
                }
                *at += (len * bits).div_ceil(8);
                Value::Str(Arc::from(s))
            }
            _ => unreachable!("only this module writes the bytes it reads"),
        }
    }
}

/// Appends the bytes of a number, as `Packer::write` writes `Value::Int`.
pub fn write_int(n: i64, out: &mut Vec<u8>) {
    if (0..INT as i64).contains(&n) {
        out.push(n as u8);
    } else {
        out.push(INT);
        varint(zigzag(n), out);
    }
}

/// Appends the bytes of a list of numbers, as `Packer::write` writes a
/// `Value::List` of `Value::Int`s.
pub fn write_int_list(ns: &[i64], out: &mut Vec<u8>) {
    out.push(LIST);
    varint(ns.len() as u64, out);
    // Numbers below `INT` are a byte each, as `write_int` writes them:
    // the common case (piles, counts) copied without a branch per number.
    if ns.iter().all(|&n| (0..INT as i64).contains(&n)) {
        out.extend(ns.iter().map(|&n| n as u8));
        return;
    }
    for &n in ns {
        write_int(n, out);
    }
}

fn zigzag(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

fn unzigzag(n: u64) -> i64 {
    ((n >> 1) as i64) ^ -((n & 1) as i64)
}

/// Seven bits a byte, low first; the high bit says more follow.
pub fn varint(mut n: u64, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

pub fn read_varint(bytes: &[u8], at: &mut usize) -> u64 {
    let mut n = 0u64;
    let mut shift = 0;
    loop {
        let b = bytes[*at];
        *at += 1;
        n |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return n;
        }
        shift += 7;
    }
}
