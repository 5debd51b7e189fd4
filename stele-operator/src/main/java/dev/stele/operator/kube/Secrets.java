package dev.stele.operator.kube;

import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.s3.AwsKeys;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Reads values out of Secrets, with messages that name the Secret and key. */
public final class Secrets {
  private Secrets() {}

  /** The value of {@code ref}, or null if the Secret does not exist. */
  public static @Nullable String read(
      KubernetesClient client, String namespace, SecretKeySelector ref, String what)
      throws InvalidResourceException {
    if (ref.getName() == null || ref.getKey() == null) {
      throw new InvalidResourceException(what + " needs both name and key");
    }
    Secret secret = client.secrets().inNamespace(namespace).withName(ref.getName()).get();
    if (secret == null) {
      return null;
    }
    String encoded = secret.getData() == null ? null : secret.getData().get(ref.getKey());
    if (encoded == null) {
      String plain =
          secret.getStringData() == null ? null : secret.getStringData().get(ref.getKey());
      if (plain != null) {
        return plain;
      }
      throw new InvalidResourceException(
          "Secret " + ref.getName() + " has no key " + ref.getKey() + " (" + what + ")");
    }
    return new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
  }

  /**
   * The {@code aws_access_key_id}, {@code aws_secret_access_key} and, if there is one, {@code
   * aws_session_token} of {@code profile} in an AWS credentials file, as Velero's Secrets hold
   * them.
   */
  public static AwsKeys awsKeys(String file, String profile, String what)
      throws InvalidResourceException {
    Map<String, String> values = new HashMap<>();
    String section = "default";
    boolean sawSection = false;
    for (String raw : file.split("\\R", -1)) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
        continue;
      }
      if (line.startsWith("[") && line.endsWith("]")) {
        section = line.substring(1, line.length() - 1).strip();
        sawSection = true;
        continue;
      }
      int eq = line.indexOf('=');
      if (eq > 0 && (section.equals(profile) || !sawSection)) {
        values.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
      }
    }
    String access = values.get("aws_access_key_id");
    String secret = values.get("aws_secret_access_key");
    if (access == null || secret == null) {
      throw new InvalidResourceException(
          what
              + " is not an AWS credentials file with aws_access_key_id and aws_secret_access_key"
              + " in profile ["
              + profile
              + "]");
    }
    return new AwsKeys(access, secret, values.get("aws_session_token"));
  }
}
