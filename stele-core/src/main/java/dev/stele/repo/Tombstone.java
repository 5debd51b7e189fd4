package dev.stele.repo;

import java.time.Instant;

/**
 * The blob {@code tombstones/<sha256>} that forgets something without deleting it: a snapshot
 * ({@code snapshots/…}) or a key ({@code keys/…}). Maintenance reclaims the target's data later,
 * once nothing references it and its retention has passed.
 *
 * @param target the name of the forgotten blob
 * @param time when it was forgotten
 * @param reason free text, such as "forget --keep-last 3" or "backup deleted"
 */
public record Tombstone(String target, Instant time, String reason) {}
