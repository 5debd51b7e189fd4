package dev.stele.operator.server;

import dev.stele.k8s.api.InvalidResourceException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;

/**
 * The server's TLS certificate: a self-signed one made for it (ECDSA P-256, the Service's DNS names
 * as subject alternative names), and the fingerprint clients pin, of whichever certificate it
 * serves.
 */
final class Certificates {
  /** How long a generated certificate is valid: it is made once and never renewed by itself. */
  static final Duration VALIDITY = Duration.ofDays(3650);

  private static final SecureRandom RANDOM = new SecureRandom();

  private Certificates() {}

  /** A PEM certificate and its PEM (PKCS#8) private key. */
  record Pem(String certificate, String key) {}

  /** A self-signed server certificate for {@code dnsNames} (the first is its subject's CN). */
  static Pem selfSigned(List<String> dnsNames, Instant now) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      KeyPair pair = generator.generateKeyPair();
      X500Name subject = new X500Name("CN=" + dnsNames.get(0));
      GeneralName[] names =
          dnsNames.stream()
              .map(n -> new GeneralName(GeneralName.dNSName, n))
              .toArray(GeneralName[]::new);
      var builder =
          new JcaX509v3CertificateBuilder(
                  subject,
                  new BigInteger(127, RANDOM).add(BigInteger.ONE),
                  Date.from(now.minus(Duration.ofMinutes(5))), // clocks of clients that lag
                  Date.from(now.plus(VALIDITY)),
                  subject,
                  pair.getPublic())
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
              .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
              .addExtension(
                  Extension.extendedKeyUsage,
                  false,
                  new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
              .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
      X509CertificateHolder cert =
          builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate()));
      return new Pem(
          pem(new PemObject("CERTIFICATE", cert.getEncoded())),
          pem(new PemObject("PRIVATE KEY", pair.getPrivate().getEncoded())));
    } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
      throw new IllegalStateException("cannot make a certificate: " + e.getMessage(), e);
    }
  }

  /**
   * {@code sha256:<hex>} of the DER bytes of the first certificate in {@code pem} (the server's
   * own, ahead of any chain).
   *
   * @param what names the Secret, for the message when {@code pem} holds no certificate
   */
  static String fingerprint(String pem, String what) throws InvalidResourceException {
    X509Certificate cert;
    try {
      cert =
          (X509Certificate)
              CertificateFactory.getInstance("X.509")
                  .generateCertificate(
                      new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    } catch (CertificateException | ClassCastException e) {
      throw new InvalidResourceException(what + ": tls.crt holds no PEM certificate");
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(cert.getEncoded());
      return "sha256:" + HexFormat.of().formatHex(digest);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e); // SHA-256 and DER encoding are always there
    }
  }

  private static String pem(PemObject object) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    }
    return out.toString();
  }
}
