package dev.stele.blob;

import java.time.Instant;

/** One published blob as a listing sees it. */
public record BlobInfo(String name, long size, Instant created) {}
