/**
 * The engine: the blob store SPI and filesystem store, the repository, snapshots of directory trees
 * and maintenance. It knows nothing of S3, Kubernetes or the command line.
 *
 * <p>Every package is exported: the other modules use the SPI ({@code blob}), the repository
 * ({@code repo}), snapshots and maintenance, and the repository's creation parameters name a KDF
 * ({@code crypto}) and a chunker ({@code chunk}). The repository's JSON blobs are coded field by
 * field; Jackson's mapper binds the same records for the command line's JSON output and the
 * server's API, so the packages that hold them are open to it alone.
 */
@SuppressWarnings("requires-automatic") // JNA names itself only in its manifest
module dev.stele.core {
  requires static transitive org.jspecify; // @Nullable in exported signatures
  requires transitive com.fasterxml.jackson.databind; // Json.MAPPER, and jackson-core
  requires com.fasterxml.jackson.datatype.jsr310;
  requires com.github.luben.zstd_jni;
  requires com.sun.jna;
  requires org.bouncycastle.provider;
  requires org.slf4j;

  exports dev.stele.blob;
  exports dev.stele.chunk;
  exports dev.stele.crypto;
  exports dev.stele.maintenance;
  exports dev.stele.repo;
  exports dev.stele.snapshot;

  opens dev.stele.chunk to
      com.fasterxml.jackson.databind;
  opens dev.stele.crypto to
      com.fasterxml.jackson.databind;
  opens dev.stele.maintenance to
      com.fasterxml.jackson.databind;
  opens dev.stele.repo to
      com.fasterxml.jackson.databind;
  opens dev.stele.snapshot to
      com.fasterxml.jackson.databind;
}
