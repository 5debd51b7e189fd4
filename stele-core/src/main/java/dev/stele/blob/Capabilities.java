package dev.stele.blob;

/**
 * What a store enforces.
 *
 * @param objectLock the storage itself refuses to delete or overwrite retained data (not just this
 *     process)
 * @param versioning every write of a key keeps the earlier versions
 * @param conditionalCreate the storage itself refuses a create of an existing name
 * @param pointInTime reads can be asked for the state at an earlier instant
 */
public record Capabilities(
    boolean objectLock, boolean versioning, boolean conditionalCreate, boolean pointInTime) {}
