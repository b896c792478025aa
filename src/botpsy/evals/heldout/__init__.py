"""The held-out eval: fresh requests written blind, graded on the store and the reply.

    botpsy eval heldout --model botpsy-smol --out runs/heldout --parallel 4 --runs 2
    botpsy eval heldout-compare runs/before/run1 runs/after/run1
"""
