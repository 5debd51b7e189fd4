/**
 * Content-defined chunking: splitting a byte stream into variable-size chunks whose boundaries
 * depend on the content, so that an insertion or deletion moves only the boundaries near it and the
 * rest of the chunks deduplicate against earlier backups.
 *
 * <p>{@link dev.stele.chunk.FastCdc} finds the next boundary in a byte array; {@link
 * dev.stele.chunk.ChunkStream} drives it over an {@code InputStream} or channel. The gear table is
 * keyed ({@link dev.stele.chunk.GearTable#fromKey}) so that chunk lengths, which an observer of the
 * storage can see, do not reveal content. The boundaries are part of the repository format:
 * changing anything here changes which chunks a repository produces.
 *
 * <p>This package works on bytes only. It must never depend on storage ({@code dev.stele.blob}),
 * encryption ({@code dev.stele.crypto}) or the repository ({@code dev.stele.repo}); the repository
 * derives the gear key and hands it in.
 */
package dev.stele.chunk;
