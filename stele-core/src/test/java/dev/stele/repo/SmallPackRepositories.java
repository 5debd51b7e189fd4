package dev.stele.repo;

import dev.stele.blob.BlobStore;
import dev.stele.crypto.KdfParams;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;

/** Repositories for the writer's tests: 64 KiB packs, so a few chunks fill one; a cheap KDF. */
final class SmallPackRepositories {
  private SmallPackRepositories() {}

  static Repository init(BlobStore store, char[] password) throws IOException {
    return Repository.init(
        store,
        password,
        RepositoryInit.defaults(Clock.systemUTC())
            .withKdf(
                KdfParams.argon2id(1024, 1, "stele-test-salt!".getBytes(StandardCharsets.UTF_8)))
            .withPackSize(64 << 10));
  }
}
