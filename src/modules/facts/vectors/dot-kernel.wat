;; Integer dot products of one query with many vectors of 8-bit codes, with 128-bit SIMD.
;; Memory layout (all offsets in bytes): vectors of `dim` codes each from `codes`, the query's
;; `dim` codes at `query`. `dim` is a multiple of 16 (vectors are padded with zero codes). Codes
;; are within -127..127, so a sum over at most 16,384 dimensions fits in 32 bits.
(module
  (memory (import "env" "memory") 1)

  ;; the dot product of the query with the vector at `v`
  (func $dot (param $v i32) (param $dim i32) (param $query i32) (result i32)
    (local $j i32) (local $acc v128) (local $a v128) (local $b v128)
    (local.set $acc (v128.const i32x4 0 0 0 0))
    (loop $lanes
      (local.set $a (v128.load (i32.add (local.get $v) (local.get $j))))
      (local.set $b (v128.load (i32.add (local.get $query) (local.get $j))))
      (local.set $acc (i32x4.add (local.get $acc)
        (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $a)) (i16x8.extend_low_i8x16_s (local.get $b)))))
      (local.set $acc (i32x4.add (local.get $acc)
        (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $a)) (i16x8.extend_high_i8x16_s (local.get $b)))))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (br_if $lanes (i32.lt_u (local.get $j) (local.get $dim))))
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
      (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))

  ;; the dot products of the query with `n` vectors from `codes`, written as 32-bit integers from `out`
  (func (export "dots") (param $codes i32) (param $n i32) (param $dim i32) (param $query i32) (param $out i32)
    (local $i i32)
    (block $done
      (loop $vectors
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (call $dot (i32.add (local.get $codes) (i32.mul (local.get $i) (local.get $dim))) (local.get $dim) (local.get $query)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $vectors))))

;; the dot products of the query's first `len` codes with those of the `n` vectors whose indexes
  ;; (32-bit integers) are at `list` (`dim` codes apart), written as 32-bit integers from `out` in
  ;; the list's order; `len` is a multiple of 16, at most `dim`
  (func (export "dotsAt") (param $codes i32) (param $list i32) (param $n i32) (param $dim i32) (param $len i32) (param $query i32) (param $out i32)
    (local $k i32)
    (block $done
      (loop $vectors
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2)))
          (call $dot
            (i32.add (local.get $codes)
              (i32.mul (i32.load (i32.add (local.get $list) (i32.shl (local.get $k) (i32.const 2)))) (local.get $dim)))
            (local.get $len) (local.get $query)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $vectors))))

  ;; The vectors among 0..n-1 whose bound reaches `threshold`, from their dot products (32-bit
  ;; integers at `dots`, as `dots` writes them) and per vector its scale, error bound and usefulness
  ;; bound (32-bit floats at `scales`, `errs`, `uses`):
  ;; (1 - w) * max(0, dot * scale * qs + err + (1 + err) * qe) + w * use, four vectors at a time.
  ;; Writes pairs of 32-bit integers (index, dot product) from `out`; returns how many.
  (func (export "above") (param $dots i32) (param $n i32) (param $scales i32) (param $errs i32) (param $uses i32)
    (param $qs f32) (param $qe f32) (param $w f32) (param $threshold f32) (param $out i32) (result i32)
    (local $i i32) (local $at i32) (local $count i32) (local $mask i32) (local $k i32)
    (local $d v128) (local $err v128) (local $bound v128)
    (block $done
      (loop $quads
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $at (i32.shl (local.get $i) (i32.const 2)))
        (local.set $d (v128.load (i32.add (local.get $dots) (local.get $at))))
        (local.set $err (v128.load (i32.add (local.get $errs) (local.get $at))))
        (local.set $bound
          (f32x4.add
            (f32x4.mul (f32x4.splat (f32.sub (f32.const 1) (local.get $w)))
              (f32x4.max (f32x4.splat (f32.const 0))
                (f32x4.add
                  (f32x4.mul (f32x4.mul (f32x4.convert_i32x4_s (local.get $d)) (v128.load (i32.add (local.get $scales) (local.get $at)))) (f32x4.splat (local.get $qs)))
                  (f32x4.add (local.get $err) (f32x4.mul (f32x4.add (f32x4.splat (f32.const 1)) (local.get $err)) (f32x4.splat (local.get $qe)))))))
            (f32x4.mul (f32x4.splat (local.get $w)) (v128.load (i32.add (local.get $uses) (local.get $at))))))
        (local.set $mask (i32x4.bitmask (f32x4.ge (local.get $bound) (f32x4.splat (local.get $threshold)))))
        (if (local.get $mask)
          (then
            (local.set $k (i32.const 0))
            (loop $lanes
              (if (i32.and (i32.ne (i32.and (local.get $mask) (i32.shl (i32.const 1) (local.get $k))) (i32.const 0))
                           (i32.lt_u (i32.add (local.get $i) (local.get $k)) (local.get $n)))
                (then
                  (i32.store (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 3))) (i32.add (local.get $i) (local.get $k)))
                  (i32.store (i32.add (local.get $out) (i32.add (i32.shl (local.get $count) (i32.const 3)) (i32.const 4)))
                    (i32.load (i32.add (local.get $dots) (i32.shl (i32.add (local.get $i) (local.get $k)) (i32.const 2)))))
                  (local.set $count (i32.add (local.get $count) (i32.const 1)))))
              (local.set $k (i32.add (local.get $k) (i32.const 1)))
              (br_if $lanes (i32.lt_u (local.get $k) (i32.const 4))))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $quads)))
    (local.get $count)))
