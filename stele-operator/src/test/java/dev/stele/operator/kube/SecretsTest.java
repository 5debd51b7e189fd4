package dev.stele.operator.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.s3.AwsKeys;
import org.junit.jupiter.api.Test;

/** The keys of an AWS credentials file, as a location's {@code spec.credential} holds it. */
class SecretsTest {
  private static final String FILE =
      """
      [default]
      aws_access_key_id = AKIDDEFAULT
      aws_secret_access_key = default-secret

      # temporary keys, as STS hands them out
      [backup]
      aws_access_key_id=ASIATEMPORARY
      aws_secret_access_key=temporary-secret
      aws_session_token=the-session-token
      """;

  @Test
  void aProfilesTemporaryKeysKeepTheirSessionToken() throws InvalidResourceException {
    assertThat(Secrets.awsKeys(FILE, "backup", "spec.credential"))
        .isEqualTo(new AwsKeys("ASIATEMPORARY", "temporary-secret", "the-session-token"));
  }

  @Test
  void longLivedKeysHaveNone() throws InvalidResourceException {
    assertThat(Secrets.awsKeys(FILE, "default", "spec.credential"))
        .isEqualTo(new AwsKeys("AKIDDEFAULT", "default-secret", null));
  }

  @Test
  void anEmptySessionTokenLineIsNone() throws InvalidResourceException {
    String file = "[default]\naws_access_key_id=AK\naws_secret_access_key=SK\naws_session_token=\n";

    assertThat(Secrets.awsKeys(file, "default", "spec.credential").sessionToken()).isNull();
  }

  @Test
  void aProfileWithoutBothKeysIsOneClearLine() {
    assertThatThrownBy(() -> Secrets.awsKeys(FILE, "missing", "spec.credential (Secret c)"))
        .isInstanceOf(InvalidResourceException.class)
        .hasMessage(
            "spec.credential (Secret c) is not an AWS credentials file with aws_access_key_id and"
                + " aws_secret_access_key in profile [missing]");
  }
}
