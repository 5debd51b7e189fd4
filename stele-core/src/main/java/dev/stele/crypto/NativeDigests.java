package dev.stele.crypto;

import java.security.MessageDigestSpi;
import java.security.Provider;
import java.security.Security;

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
      if (NativeCrypto.hasDigest(algorithm)) {
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
    if (!NativeCrypto.hasDigest("SHA-256")) {
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
      return new Spi(NativeCrypto.digest(getAlgorithm()));
    }
  }

  /** One digest; cloneable, as the JDK's are (TLS clones its handshake hash). */
  private static final class Spi extends MessageDigestSpi implements Cloneable {
    private final NativeCrypto.Digest digest;

    Spi(NativeCrypto.Digest digest) {
      this.digest = digest;
    }

    @Override
    protected int engineGetDigestLength() {
      return digest.length();
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
      byte[] out = new byte[digest.length()];
      digest.finish(out);
      return out;
    }

    @Override
    protected void engineReset() {
      digest.reset();
    }

    @Override
    public Object clone() {
      return new Spi(digest.copy());
    }
  }
}
