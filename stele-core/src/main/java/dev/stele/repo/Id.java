package dev.stele.repo;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A 32-byte identifier: a chunk's keyed hash, or the SHA-256 of a stored blob. Immutable; compares
 * by value.
 */
public final class Id implements Comparable<Id> {
  public static final int BYTES = 32;
  private static final HexFormat HEX = HexFormat.of();
  private final byte[] bytes;
  private final int hash;

  private Id(byte[] bytes) {
    this.bytes = bytes;
    this.hash = hashAt(bytes, 0);
  }

  /** The {@link #hashCode} of the id whose bytes start at {@code off} in {@code buf}. */
  static int hashAt(byte[] buf, int off) {
    return (buf[off] & 0xff) << 24
        | (buf[off + 1] & 0xff) << 16
        | (buf[off + 2] & 0xff) << 8
        | (buf[off + 3] & 0xff);
  }

  /** True if the id whose bytes start at {@code off} in {@code buf} is this one. */
  boolean isAt(byte[] buf, int off) {
    return Arrays.equals(bytes, 0, BYTES, buf, off, off + BYTES);
  }

  public static Id of(byte[] bytes) {
    if (bytes.length != BYTES) {
      throw new IllegalArgumentException("an id is 32 bytes, not " + bytes.length);
    }
    return new Id(bytes.clone());
  }

  public static Id read(byte[] buf, int off) {
    return new Id(Arrays.copyOfRange(buf, off, off + BYTES));
  }

  public static Id parse(String hex) {
    if (hex.length() != 2 * BYTES) {
      throw new IllegalArgumentException("an id is 64 hex digits: " + hex);
    }
    return new Id(HEX.parseHex(hex));
  }

  public byte[] bytes() {
    return bytes.clone();
  }

  public void writeTo(byte[] buf, int off) {
    System.arraycopy(bytes, 0, buf, off, BYTES);
  }

  public String hex() {
    return HEX.formatHex(bytes);
  }

  /** The first 8 hex digits, as shown to people. */
  public String shortHex() {
    return hex().substring(0, 8);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Id other && hash == other.hash && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public int compareTo(Id o) {
    return Arrays.compareUnsigned(bytes, o.bytes);
  }

  @Override
  public String toString() {
    return hex();
  }
}
