package dev.stele.repo;

import dev.stele.crypto.Digests;

/** SHA-256, which names every standalone blob by its stored bytes. */
final class Sha256 {
  private Sha256() {}

  static Id of(byte[] data) {
    return Id.of(Digests.sha256(data));
  }
}
