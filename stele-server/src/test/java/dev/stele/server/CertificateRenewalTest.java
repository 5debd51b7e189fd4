package dev.stele.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A certificate renewed on disk (cert-manager renewing, a rotated Secret) is presented by the next
 * handshake, without a restart; a certificate whose key has not arrived yet leaves the old pair
 * serving until it has.
 */
class CertificateRenewalTest {
  @TempDir Path tmp;
  private ServerFixture f;
  private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
  private PrintStream oldStderr;

  @BeforeEach
  void setUp() throws Exception {
    f = new ServerFixture(tmp.resolve("server"));
    Files.writeString(f.access, "{}");
    oldStderr = System.err;
    System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
    f.start();
  }

  @AfterEach
  void tearDown() throws Exception {
    System.setErr(oldStderr);
    f.close();
  }

  @Test
  void aNewKeyPairOnDiskIsPresentedByTheNextHandshake() throws Exception {
    assertThat(presented()).isEqualTo(f.certificate());

    X509Certificate renewed = ServerFixture.certificate(f.dir, "renewed");
    f.clock.advance(java.time.Duration.ofSeconds(1));

    assertThat(presented()).isEqualTo(renewed);
    assertThat(f.fingerprint()).isEqualTo(Tls.fingerprint(renewed));
    assertThat(stderr.toString(StandardCharsets.UTF_8))
        .contains("certificate renewed: fingerprint " + Tls.fingerprint(renewed));
  }

  @Test
  void aCertificateWithoutItsKeyYetLeavesTheOldPairServing() throws Exception {
    Path side = Files.createDirectories(tmp.resolve("side"));
    X509Certificate next = ServerFixture.certificate(side, "next");
    Files.move(side.resolve("tls.crt"), f.dir.resolve("tls.crt"), StandardCopyOption.ATOMIC_MOVE);

    assertThat(presented()).isEqualTo(f.certificate());
    assertThat(presented()).isEqualTo(f.certificate());
    assertThat(stderr.toString(StandardCharsets.UTF_8).lines())
        .containsOnlyOnce(
            "certificate not renewed, the old one still serves: the key "
                + f.dir.resolve("tls.key")
                + " is not the key of the certificate "
                + f.dir.resolve("tls.crt"));

    Files.move(side.resolve("tls.key"), f.dir.resolve("tls.key"), StandardCopyOption.ATOMIC_MOVE);

    assertThat(presented()).isEqualTo(next);
  }

  private Certificate presented() throws Exception {
    return f.presented();
  }
}
