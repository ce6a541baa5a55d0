//! warpforge waves: VCD writing, GTKWave save files, waveform comparison.
