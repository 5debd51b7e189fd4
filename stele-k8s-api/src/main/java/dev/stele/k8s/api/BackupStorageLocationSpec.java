package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** What a {@link BackupStorageLocation} asks for. Names follow Velero's. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BackupStorageLocationSpec {
  @Required
  @Pattern("^(s3|filesystem)$")
  @JsonPropertyDescription(
      "s3 for an S3 bucket; filesystem for a directory mounted into the operator (config.path)")
  public String provider;

  @Required public ObjectStorage objectStorage;

  @JsonPropertyDescription(
      "Provider settings. s3: region, s3Url (the endpoint), s3ForcePathStyle (\"true\")."
          + " filesystem: path (the directory holding the buckets).")
  public Map<String, String> config;

  @JsonPropertyDescription(
      "Secret key holding an AWS credentials file ([default] aws_access_key_id=…,"
          + " aws_secret_access_key=…); absent: the SDK's default chain")
  public SecretKeySelector credential;

  @Pattern("^(ReadWrite|ReadOnly)$")
  @Default("ReadWrite")
  public String accessMode;

  /** The access mode asked for: ReadWrite unless it says ReadOnly. */
  public AccessMode access() {
    return AccessMode.of(accessMode).orElse(AccessMode.READ_WRITE);
  }

  @JsonPropertyDescription("How often the bucket is checked again, such as 1m, 30s or 1h30m")
  @Pattern("^([0-9]+(ms|s|m|h|d))+$")
  @Default("1m")
  public String validationFrequency;

  public ObjectLock objectLock;

  @JsonPropertyDescription(
      "Create a BackupStorageLocationRepository named after this location (default true)")
  @Default("true")
  public @Nullable Boolean createDefaultRepository;

  /** The bucket and the prefix under which every repository of this location lives. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class ObjectStorage {
    @Required
    @Pattern("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")
    public String bucket;

    @JsonPropertyDescription("Key prefix; repositories live under <prefix>/repositories/<name>/")
    @Pattern("^([A-Za-z0-9_-][A-Za-z0-9._-]*)(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$")
    public String prefix;

    @JsonPropertyDescription("Secret key holding PEM certificates to trust for HTTPS")
    public SecretKeySelector caCertRef;
  }

  /** The retention that repositories here give every blob. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class ObjectLock {
    @JsonPropertyDescription(
        "Detect: follow the bucket's default rule. None: no retention. Governance or"
            + " Compliance: retain every blob for minimumRetention in that mode; the bucket must"
            + " have object lock. Capitalised or in lower case (compliance), as the status and"
            + " stele install print it.")
    @Pattern("^(Detect|None|Governance|Compliance|detect|none|governance|compliance)$")
    @Default("Detect")
    public String mode;

    @JsonPropertyDescription("Such as 30d or 720h; required for Governance and Compliance")
    @Pattern("^([0-9]+(ms|s|m|h|d))+$")
    public String minimumRetention;

    @JsonPropertyDescription(
        "Accept mode Governance on a bucket whose default rule is Compliance (a person with"
            + " the bypass permission could then delete what the bucket alone would keep);"
            + " without it such a location is Unavailable")
    public @Nullable Boolean allowWeakerThanBucket;
  }
}
