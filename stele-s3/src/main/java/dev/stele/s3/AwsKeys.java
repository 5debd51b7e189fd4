package dev.stele.s3;

import org.jspecify.annotations.Nullable;

/**
 * An access key and its secret, with the session token of temporary keys (STS, SSO), else null:
 * what a request is signed with. A blank token (an empty {@code aws_session_token=} line, an
 * exported but empty variable) counts as none: sent, S3 would refuse the keys. {@link #toString()}
 * shows the access key only.
 */
public record AwsKeys(String accessKey, String secretKey, @Nullable String sessionToken) {
  public AwsKeys {
    if (accessKey == null || secretKey == null) {
      throw new IllegalArgumentException("give both an access key and its secret, or neither");
    }
    if (sessionToken != null && sessionToken.isBlank()) {
      sessionToken = null;
    }
  }

  @Override
  public String toString() {
    return "AwsKeys[" + accessKey + "]";
  }
}
