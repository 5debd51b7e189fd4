package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.k8s.api.AccessMode;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.LockMode;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * What {@code backup-location create} and {@code set} may say about a BackupStorageLocation, with
 * Velero's option names where Velero has the setting ({@code --config}, {@code --credential},
 * {@code --access-mode}, {@code --validation-frequency}) and Stele's for the lock. Each value is
 * checked when applied, so a typo is one line naming the option and nothing is written.
 */
final class LocationOptions {
  /** The {@code config} keys the operator reads, per provider; any other is refused by name. */
  private static final Map<String, Set<String>> CONFIG_KEYS =
      Map.of(
          "s3", Set.of("region", "s3Url", "s3ForcePathStyle", "profile"),
          "filesystem", Set.of("path"));

  /** The CRD's pattern for durations. */
  private static final Pattern DURATION = Pattern.compile("([0-9]+(ms|s|m|h|d))+");

  @Option(
      names = "--config",
      split = ",",
      paramLabel = "KEY=VALUE",
      description =
          "Provider settings. s3: region, s3Url (the endpoint), s3ForcePathStyle=true, profile;"
              + " filesystem: path (the directory holding the bucket).")
  List<String> config;

  @Option(
      names = "--credential",
      paramLabel = "SECRET=KEY",
      description =
          "The Secret key holding an AWS credentials file (default: the SDK's default chain).")
  String credential;

  @Option(
      names = "--cacert-secret",
      paramLabel = "SECRET=KEY",
      description = "The Secret key holding PEM certificates to trust for HTTPS.")
  String caCert;

  @Option(
      names = "--access-mode",
      paramLabel = "MODE",
      description = "ReadWrite (default) or ReadOnly: backups are only read from it.")
  String accessMode;

  @Option(
      names = "--validation-frequency",
      paramLabel = "DURATION",
      description = "How often the bucket is checked again, such as 1m or 1h (default 1m).")
  String validationFrequency;

  @Option(
      names = "--lock-mode",
      paramLabel = "MODE",
      description =
          "Detect (default: follow the bucket's default rule), None, Governance or Compliance:"
              + " the retention every blob gets.")
  String lockMode;

  @Option(
      names = "--min-retention",
      paramLabel = "DURATION",
      description =
          "How long every blob is retained, such as 30d (required for Governance and Compliance).")
  String minRetention;

  @Option(
      names = "--default",
      description =
          "Velero's default location: in Stele, the location named default is the default, so"
              + " this is refused for any other name.")
  boolean isDefault;

  /** The names of the options given, as Velero's {@code set} reports what it changed. */
  List<String> given() {
    List<String> given = new ArrayList<>();
    add(given, config, "config");
    add(given, credential, "credential");
    add(given, caCert, "cacert-secret");
    add(given, accessMode, "access-mode");
    add(given, validationFrequency, "validation-frequency");
    add(given, lockMode, "lock-mode");
    add(given, minRetention, "min-retention");
    return given;
  }

  private static void add(List<String> given, Object value, String option) {
    if (value != null) {
      given.add(option);
    }
  }

  /** Applies what was given to {@code spec}; a usage failure for anything malformed. */
  void applyTo(String name, BackupStorageLocationSpec spec) {
    if (isDefault && !name.equals("default")) {
      throw CliException.usage(
          "--default: in Stele the default location is the one named default (Backups without"
              + " --storage-location go there); name this one default, or give the location to"
              + " each backup");
    }
    if (config != null) {
      Map<String, String> merged =
          new LinkedHashMap<>(spec.config == null ? Map.of() : spec.config);
      merged.putAll(config(spec.provider));
      spec.config = merged;
    }
    if (credential != null) {
      spec.credential = secretKey("--credential", credential);
    }
    if (caCert != null) {
      spec.objectStorage.caCertRef = secretKey("--cacert-secret", caCert);
    }
    if (accessMode != null) {
      spec.accessMode = choice("--access-mode", accessMode, AccessMode.values()).toString();
    }
    if (validationFrequency != null) {
      spec.validationFrequency = duration("--validation-frequency", validationFrequency);
    }
    if (lockMode != null || minRetention != null) {
      var lock =
          spec.objectLock == null ? new BackupStorageLocationSpec.ObjectLock() : spec.objectLock;
      if (lockMode != null) {
        lock.mode = choice("--lock-mode", lockMode, LockMode.values()).toString();
      }
      if (minRetention != null) {
        lock.minimumRetention = duration("--min-retention", minRetention);
      }
      LockMode mode = LockMode.of(lock.mode).orElse(LockMode.DETECT);
      if ((mode == LockMode.GOVERNANCE || mode == LockMode.COMPLIANCE)
          && lock.minimumRetention == null) {
        throw CliException.usage(
            "--lock-mode " + mode + " needs --min-retention, such as --min-retention 30d");
      }
      spec.objectLock = lock;
    }
  }

  private Map<String, String> config(String provider) {
    Set<String> known = CONFIG_KEYS.getOrDefault(provider, Set.of());
    Map<String, String> map = new LinkedHashMap<>();
    for (String pair : config) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw CliException.usage("--config " + pair + ": write key=value pairs");
      }
      String key = pair.substring(0, eq).strip();
      if (!known.contains(key)) {
        throw CliException.usage(
            "--config "
                + key
                + ": not a setting of provider "
                + provider
                + " in Stele (it takes "
                + String.join(", ", known.stream().sorted().toList())
                + ")");
      }
      map.put(key, pair.substring(eq + 1).strip());
    }
    return map;
  }

  private static SecretKeySelector secretKey(String option, String text) {
    int eq = text.indexOf('=');
    if (eq <= 0 || eq == text.length() - 1) {
      throw CliException.usage(
          option + " " + text + ": write SECRET=KEY, such as cloud=credentials");
    }
    String secret = KubeNames.resourceName(option + " secret", text.substring(0, eq).strip());
    SecretKeySelector s = new SecretKeySelector();
    s.setName(secret);
    s.setKey(text.substring(eq + 1).strip());
    return s;
  }

  /** The constant spelled {@code text}, in any case (compliance or Compliance). */
  static <E extends Enum<E>> E choice(String option, String text, E[] values) {
    for (E e : values) {
      if (e.toString().equalsIgnoreCase(text.strip())) {
        return e;
      }
    }
    List<String> names = new ArrayList<>();
    for (E e : values) {
      names.add(e.toString());
    }
    throw CliException.usage(option + " " + text + ": use " + String.join(", ", names));
  }

  static String duration(String option, String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    if (!DURATION.matcher(t).matches()) {
      throw CliException.usage(
          option + " " + text + ": not a duration (write it like 30d, 720h or 1h30m)");
    }
    return t;
  }
}
