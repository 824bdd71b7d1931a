"""Experiments over many batches: sweeps, calibration, tuning, balance targets, sensitivity.
"""
