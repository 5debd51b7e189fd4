package dev.stele.crypto;

import java.security.MessageDigestSpi;
import java.security.Provider;
import java.security.Security;
import java.util.Objects;

/**
 * A security provider of {@code MessageDigest} SHA-256 and MD5 computed by OpenSSL ({@link
 * NativeCrypto}), for code that hashes through the JDK's API and that Stele does not call itself:
 * the S3 client hashes every upload (SHA-256 to sign its payload over plain HTTP, MD5 for the
 * Content-MD5 that Object Lock requires). The JDK's digests run at speed only once C2 has compiled
 * their intrinsics; with these, a backup to S3 runs with C1 alone, as local ones do. The bytes are
 * the JDK's.
 *
 * <p>Concurrency: {@link #install} is safe to call from any thread, any number of times.
 */
public final class NativeDigests extends Provider {
  private static final long serialVersionUID = 1L;
  private static final String NAME = "SteleOpenSSLDigests";

  private NativeDigests() {
    super(NAME, "1", "SHA-256 and MD5 from OpenSSL's libcrypto");
    for (String algorithm : new String[] {"SHA-256", "MD5"}) {
      if (NativeCrypto.digest(algorithm) != null) {
        putService(new DigestService(this, algorithm));
      }
    }
  }

  /**
   * Puts this provider first for SHA-256 and MD5 in this JVM, where OpenSSL loads; otherwise, or if
   * installed already, does nothing. Returns whether it is installed.
   */
  public static synchronized boolean install() {
    if (Security.getProvider(NAME) != null) {
      return true;
    }
    if (NativeCrypto.digest("SHA-256") == null) {
      return false;
    }
    Security.insertProviderAt(new NativeDigests(), 1);
    return true;
  }

  /** Makes its digests directly, without the reflection a class-name service takes. */
  private static final class DigestService extends Service {
    DigestService(Provider provider, String algorithm) {
      super(provider, "MessageDigest", algorithm, Spi.class.getName(), null, null);
    }

    @Override
    public Object newInstance(Object constructorParameter) {
      String algorithm = getAlgorithm();
      return new Spi(
          Objects.requireNonNull(NativeCrypto.digest(algorithm)),
          algorithm.equals("MD5") ? 16 : 32);
    }
  }

  /** One digest; cloneable, as the JDK's are (TLS clones its handshake hash). */
  private static final class Spi extends MessageDigestSpi implements Cloneable {
    private final NativeCrypto.Digest digest;
    private final int length;

    Spi(NativeCrypto.Digest digest, int length) {
      this.digest = digest;
      this.length = length;
    }

    @Override
    protected int engineGetDigestLength() {
      return length;
    }

    @Override
    protected void engineUpdate(byte input) {
      digest.update(new byte[] {input}, 0, 1);
    }

    @Override
    protected void engineUpdate(byte[] input, int offset, int len) {
      digest.update(input, offset, len);
    }

    @Override
    protected byte[] engineDigest() {
      byte[] out = new byte[length];
      digest.finish(out);
      return out;
    }

    @Override
    protected void engineReset() {
      digest.reset();
    }

    @Override
    public Object clone() {
      return new Spi(digest.copy(), length);
    }
  }
}
