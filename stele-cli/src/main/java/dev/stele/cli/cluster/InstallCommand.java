package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code stele install} (Velero's {@code velero install}): the CRDs, the namespace, RBAC, the
 * operator's Deployment and the node agent's DaemonSet from {@link Installation}, and, given a
 * bucket, a first BackupStorageLocation {@code default} with its credentials Secret. Prints them
 * (YAML or JSON), or with {@code --apply} creates or updates each in the cluster.
 */
@Command(
    name = "install",
    description =
        "Render the CRDs, namespace, RBAC, operator Deployment and node-agent DaemonSet (and a"
            + " first BackupStorageLocation with --bucket); --apply applies them to the cluster.")
public final class InstallCommand extends ClusterCommand {
  static final String LOCATION = "default";
  static final String CREDENTIALS = "s3-credentials";
  static final String CREDENTIALS_KEY = "cloud";

  @Option(names = "--apply", description = "Apply to the cluster instead of printing.")
  boolean apply;

  @Option(
      names = "--dry-run",
      description = "Print what would be applied and apply nothing (the default without --apply).")
  boolean dryRun;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      defaultValue = "yaml",
      description = "yaml (default) or json, when printing.")
  String output;

  @Option(names = "--image", paramLabel = "IMAGE", description = "The image of both workloads.")
  String image;

  @Option(
      names = "--node-agent",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description = "Install the node agent (pod volume backups); --no-node-agent leaves it out.")
  boolean nodeAgent;

  @Option(
      names = "--operator-cpu-request",
      paramLabel = "CPU",
      description = "The operator's CPU request. Default: deploy/operator.yaml's.")
  String operatorCpu;

  @Option(
      names = "--operator-memory-request",
      paramLabel = "MEMORY",
      description = "The operator's memory request. Default: deploy/operator.yaml's.")
  String operatorMemory;

  @Option(
      names = "--node-agent-cpu-request",
      paramLabel = "CPU",
      description = "The node agent's CPU request. Default: deploy/node-agent.yaml's.")
  String nodeAgentCpu;

  @Option(
      names = "--node-agent-memory-request",
      paramLabel = "MEMORY",
      description = "The node agent's memory request. Default: deploy/node-agent.yaml's.")
  String nodeAgentMemory;

  @Option(
      names = "--bucket",
      paramLabel = "BUCKET",
      description = "Create the BackupStorageLocation default on this bucket.")
  String bucket;

  @Option(
      names = "--provider",
      paramLabel = "NAME",
      defaultValue = "s3",
      description = "s3 (default) or filesystem (config path=DIR).")
  String provider;

  @Option(names = "--prefix", paramLabel = "PREFIX", description = "The location's key prefix.")
  String prefix;

  @Option(names = "--endpoint", paramLabel = "URL", description = "The S3 endpoint (s3Url).")
  String endpoint;

  @Option(names = "--region", paramLabel = "REGION", description = "The S3 region (region).")
  String region;

  @Option(names = "--path-style", description = "Path-style S3 requests (s3ForcePathStyle).")
  boolean pathStyle;

  @Option(
      names = "--backup-location-config",
      paramLabel = "KEY=VALUE",
      description = "Another config entry of the location (filesystem: path=DIR).")
  Map<String, String> locationConfig = new LinkedHashMap<>();

  @Option(
      names = "--secret-file",
      paramLabel = "FILE",
      description =
          "An AWS credentials file; it becomes the Secret "
              + CREDENTIALS
              + " (key "
              + CREDENTIALS_KEY
              + ") the location uses.")
  Path secretFile;

  @Option(
      names = "--lock-mode",
      paramLabel = "MODE",
      description = "detect (default), none, governance or compliance.")
  String lockMode;

  @Option(
      names = "--min-retention",
      paramLabel = "DURATION",
      description = "Retain every blob this long (30d, 720h); needed for governance, compliance.")
  String minRetention;

  @Override
  int run() throws IOException, InterruptedException {
    if (apply && dryRun) {
      throw CliException.usage("--apply and --dry-run exclude each other");
    }
    String format = output.toLowerCase(Locale.ROOT);
    if (!format.equals("yaml") && !format.equals("json")) {
      throw CliException.usage("-o " + output + ": use yaml or json");
    }
    List<HasMetadata> objects = render();
    if (!apply) {
      out().print(format.equals("yaml") ? Installation.yaml(objects) : Installation.json(objects));
      return ExitCode.OK;
    }
    for (HasMetadata o : objects) {
      if (o instanceof BackupStorageLocation) {
        awaitServed();
      }
      client.resource(o).createOr(NonDeletingOperation::update);
      out().println("applied " + o.getKind() + " " + o.getMetadata().getName());
    }
    out().printf("Stele is installed in namespace %s.%n", namespace);
    return ExitCode.OK;
  }

  List<HasMetadata> render() throws IOException {
    Installation installation = Installation.base().inNamespace(namespace);
    if (image != null) {
      installation.withImage(image);
    }
    if (!nodeAgent) {
      installation.withoutNodeAgent();
    }
    installation
        .withRequests(true, operatorCpu, operatorMemory)
        .withRequests(false, nodeAgentCpu, nodeAgentMemory);
    if (secretFile != null) {
      installation.with(credentials());
    }
    if (bucket != null) {
      installation.with(location());
    } else if (secretFile != null
        || prefix != null
        || endpoint != null
        || region != null
        || pathStyle
        || !locationConfig.isEmpty()
        || lockMode != null
        || minRetention != null) {
      throw CliException.usage("the location's options need --bucket");
    }
    return installation.objects();
  }

  private HasMetadata credentials() throws IOException {
    byte[] content;
    try {
      content = Files.readAllBytes(secretFile);
    } catch (NoSuchFileException e) {
      throw CliException.notFound(secretFile + ": no such file");
    }
    return new SecretBuilder()
        .withNewMetadata()
        .withName(CREDENTIALS)
        .withNamespace(namespace)
        .endMetadata()
        .addToData(CREDENTIALS_KEY, Base64.getEncoder().encodeToString(content))
        .build();
  }

  private BackupStorageLocation location() {
    var spec = new BackupStorageLocationSpec();
    spec.provider = provider;
    spec.objectStorage = new BackupStorageLocationSpec.ObjectStorage();
    spec.objectStorage.bucket = bucket;
    spec.objectStorage.prefix = prefix;
    Map<String, String> config = new LinkedHashMap<>(locationConfig);
    if (endpoint != null) {
      config.put("s3Url", endpoint);
    }
    if (region != null) {
      config.put("region", region);
    }
    if (pathStyle) {
      config.put("s3ForcePathStyle", "true");
    }
    spec.config = config.isEmpty() ? null : config;
    if (secretFile != null) {
      spec.credential = new SecretKeySelector(CREDENTIALS_KEY, CREDENTIALS, false);
    }
    if (lockMode != null || minRetention != null) {
      spec.objectLock = new BackupStorageLocationSpec.ObjectLock();
      spec.objectLock.mode = lockMode == null ? null : lockMode(lockMode);
      spec.objectLock.minimumRetention = minRetention;
      boolean locked = lockMode != null && lockMode.matches("(?i)governance|compliance");
      if (locked && minRetention == null) {
        throw CliException.usage("--lock-mode " + lockMode + " needs --min-retention");
      }
    }
    var bsl = new BackupStorageLocation();
    bsl.setMetadata(new ObjectMetaBuilder().withName(LOCATION).withNamespace(namespace).build());
    bsl.setSpec(spec);
    return bsl;
  }

  private static String lockMode(String mode) {
    return switch (mode.toLowerCase(Locale.ROOT)) {
      case "detect" -> "Detect";
      case "none" -> "None";
      case "governance" -> "Governance";
      case "compliance" -> "Compliance";
      default ->
          throw CliException.usage(
              "--lock-mode " + mode + ": use detect, none, governance or compliance");
    };
  }

  /** Waits until the API server serves the CRDs just applied (a moment on a real cluster). */
  private void awaitServed() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      try {
        client.resources(BackupStorageLocation.class).inNamespace(namespace).list();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404 || System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(500);
      }
    }
  }
}
