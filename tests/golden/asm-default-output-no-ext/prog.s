; A small program: non-canonical spellings on purpose (case, spacing, value forms).
start:
  tensorstore $S[4]>=2 $S[22]++@complete dtype=FP32 src_datasrc=immediate num_elem={4} start_addr=dev:0x80100 step_elem={1} data={1.0, 0.5, -2, 3.25}
  TensorLoad dtype = u32  num_elem = {2,2} start_addr=sbuf[p2]+0x100 step_elem={1,2} data={r1,r2,r3,r4}   # a load
loop: TensorScalarImmLdArith $E[3]?set src_mem_pattern.start_addr=sbuf[p0]+0x200 src_mem_pattern.step_elem={1,4} src_mem_pattern.num_elem={4,1} dtype=fp32 num_active_channels=32
  .raw 9f100000fe0001030000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
