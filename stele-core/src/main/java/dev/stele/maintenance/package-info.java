/**
 * Keeping a repository healthy: verification; repair, which mends damage by writing new blobs only;
 * and maintenance — the only code that deletes.
 *
 * <p>Maintenance is lock-free and two-phase: a run marks what no live snapshot needs, and a later
 * run, past a window, deletes what is still unneeded and no longer retained. It depends on {@code
 * dev.stele.repo} and {@code dev.stele.snapshot} (to walk trees), never on a particular store.
 */
package dev.stele.maintenance;
