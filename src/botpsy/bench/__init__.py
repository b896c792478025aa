"""Device benchmark: latency, memory, quantized speed and the memory-bandwidth roofline.

``botpsy bench run --model smollm2 --quick --out DIR`` quantizes the model with
llama.cpp's own quantizer (``quantize``), measures each variant in a fresh worker
process (``worker``, ``measure``, ``measure_hf``), relates decode speed to this
machine's measured memory bandwidth (``roofline``), records the machine
(``machine``) and writes report.json / report.md / plots / one HTML page
(``report``, ``plots``). ``botpsy bench compare A B`` prints ratios of two reports.
"""
