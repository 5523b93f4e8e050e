;; Cosine scores for the vector channel (src/retrieval/vector-rows.ts holds the layout).
;;
;; float32 rows are stored in groups of 16: a group is the 16 rows' squared norms (16 f32), then,
;; for each dimension j in order, the 16 rows' element j (16 f32). Lane i of accumulator k is
;; row 4k + i, and it adds element j's product before element j + 1's: each row is summed in
;; index order, one float32 rounding per product and per sum and no fused multiply-add, as
;; DuckDB's array_cosine_similarity sums a FLOAT[d] row. So the scores are bit for bit the scalar
;; ones; only rows, never dimensions, run side by side.
(module
  (import "env" "memory" (memory 0))

  ;; scores_f32(q, q_norm, rows, groups, d, out): for each of `groups` groups from byte `rows`,
  ;; writes the 16 rows' dot(row, q) / sqrt(norm(row) * q_norm) as f32 at `out`, 64 bytes a
  ;; group. `q` holds d f32. d >= 1.
  (func (export "scores_f32")
    (param $q i32) (param $q_norm f32) (param $rows i32) (param $groups i32) (param $d i32) (param $out i32)
    (local $p i32) (local $qp i32) (local $qend i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $y v128) (local $qn v128)
    (local.set $qn (f32x4.splat (local.get $q_norm)))
    (local.set $qend (i32.add (local.get $q) (i32.shl (local.get $d) (i32.const 2))))
    (block $done
      (br_if $done (i32.eqz (local.get $groups)))
      (loop $group
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $p (i32.add (local.get $rows) (i32.const 64)))
        (local.set $qp (local.get $q))
        (loop $dim
          (local.set $y (v128.load32_splat (local.get $qp)))
          (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (v128.load offset=0 (local.get $p)) (local.get $y))))
          (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (v128.load offset=16 (local.get $p)) (local.get $y))))
          (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (v128.load offset=32 (local.get $p)) (local.get $y))))
          (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (v128.load offset=48 (local.get $p)) (local.get $y))))
          (local.set $p (i32.add (local.get $p) (i32.const 64)))
          (local.set $qp (i32.add (local.get $qp) (i32.const 4)))
          (br_if $dim (i32.lt_u (local.get $qp) (local.get $qend))))
        (v128.store offset=0 (local.get $out)
          (f32x4.div (local.get $a0) (f32x4.sqrt (f32x4.mul (v128.load offset=0 (local.get $rows)) (local.get $qn)))))
        (v128.store offset=16 (local.get $out)
          (f32x4.div (local.get $a1) (f32x4.sqrt (f32x4.mul (v128.load offset=16 (local.get $rows)) (local.get $qn)))))
        (v128.store offset=32 (local.get $out)
          (f32x4.div (local.get $a2) (f32x4.sqrt (f32x4.mul (v128.load offset=32 (local.get $rows)) (local.get $qn)))))
        (v128.store offset=48 (local.get $out)
          (f32x4.div (local.get $a3) (f32x4.sqrt (f32x4.mul (v128.load offset=48 (local.get $rows)) (local.get $qn)))))
        (local.set $rows (local.get $p))
        (local.set $out (i32.add (local.get $out) (i32.const 64)))
        (br_if $group (local.tee $groups (i32.sub (local.get $groups) (i32.const 1)))))))

  ;; dots_i8(q, rows, count, width, out): for each of `count` int8 rows of `width` bytes (a
  ;; multiple of 16, zero-padded) from byte `rows`, writes the exact i32 dot product with the
  ;; int16 query at `q` (width values) at `out`, 4 bytes a row. Integer sums are exact in any
  ;; order, so this kernel may sum across dimensions.
  (func (export "dots_i8")
    (param $q i32) (param $rows i32) (param $count i32) (param $width i32) (param $out i32)
    (local $p i32) (local $qp i32) (local $end i32) (local $acc v128) (local $x v128)
    (block $done
      (br_if $done (i32.eqz (local.get $count)))
      (loop $row
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $p (local.get $rows))
        (local.set $qp (local.get $q))
        (local.set $end (i32.add (local.get $rows) (local.get $width)))
        (loop $chunk
          (local.set $x (v128.load (local.get $p)))
          (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $x)) (v128.load offset=0 (local.get $qp)))))
          (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $x)) (v128.load offset=16 (local.get $qp)))))
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (local.set $qp (i32.add (local.get $qp) (i32.const 32)))
          (br_if $chunk (i32.lt_u (local.get $p) (local.get $end))))
        (i32.store (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $rows (local.get $end))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br_if $row (local.tee $count (i32.sub (local.get $count) (i32.const 1))))))))
