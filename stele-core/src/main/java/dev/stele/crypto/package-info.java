/**
 * Cryptographic building blocks: the password KDF, the AEAD, key derivation and keyed hashing.
 *
 * <p>Everything here works on byte arrays and knows nothing about blobs, packs or snapshots. It
 * depends only on the JDK and, for the memory-hard KDF the JDK lacks, BouncyCastle, or the system's
 * {@code libargon2} through JNA where it is installed; where the system's OpenSSL ({@code
 * libcrypto.so.3}) is installed, it hashes and encrypts in place of the JDK, with the same bytes.
 */
package dev.stele.crypto;
