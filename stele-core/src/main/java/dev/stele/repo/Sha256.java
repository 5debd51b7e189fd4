package dev.stele.repo;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256, which names every standalone blob by its stored bytes. */
final class Sha256 {
  private Sha256() {}

  static Id of(byte[] data) {
    try {
      return Id.of(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
