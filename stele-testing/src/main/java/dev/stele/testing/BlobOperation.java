package dev.stele.testing;

/** The kinds of {@link dev.stele.blob.BlobStore} call, as decorators record and fault them. */
public enum BlobOperation {
  CREATE,
  /** Either kind of read, whole or ranged. */
  READ,
  LIST,
  STAT,
  DELETE,
  RETENTION,
  EXTEND_RETENTION;

  /** True for the calls that change the store: create, delete, extendRetention. */
  public boolean mutates() {
    return this == CREATE || this == DELETE || this == EXTEND_RETENTION;
  }
}
