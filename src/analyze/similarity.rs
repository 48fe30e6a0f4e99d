//! Similarity between submissions (filled in below).
