package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link BackupStorageLocationServer} asks for. {@code access} is handed to the server as
 * JSON, exactly as written here ({@code stele server --access}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BackupStorageLocationServerSpec {
  @Required
  @JsonPropertyDescription("The BackupStorageLocationRepository, in this namespace, to serve")
  public String backupStorageLocationRepositoryRef;

  @Required
  @JsonPropertyDescription(
      "Secret of the users: each key a user name, its value the password or a bcrypt ($2a$, $2b$,"
          + " $2y$) or argon2id ($argon2id$) hash. A change takes effect without a restart.")
  public LocalObjectReference userSecretRef;

  @JsonPropertyDescription("Who may see what; without rules only admins see anything")
  public Access access;

  @JsonPropertyDescription(
      "The server's certificate; without secretRef the operator generates a self-signed one into"
          + " the Secret <name>-tls, once")
  public Tls tls;

  public Service service;

  @JsonPropertyDescription("The server container's resources")
  public ResourceRequirements resources;

  @Min(0)
  @Default("1")
  public @Nullable Integer replicas;

  public Map<String, String> nodeSelector;

  public List<Toleration> tolerations;

  /** The access rules, as {@code stele server --access} reads them. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Access {
    @JsonPropertyDescription("Users who see everything and manage the server")
    public List<String> admins = new ArrayList<>();

    @JsonPropertyDescription("A user may read what any of their rules allows")
    public List<Rule> rules = new ArrayList<>();

    @JsonPropertyDescription("Per user: the most the server sends them, all answers together")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public Map<String, Limit> limits = new LinkedHashMap<>();
  }

  /** One user's limits. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Limit {
    @JsonPropertyDescription("Bytes per second the server sends this user at most")
    @Min(1)
    public Long downloadBytesPerSecond;
  }

  /** One rule: allows a snapshot when every non-empty field matches it. */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public static class Rule {
    @Required public List<String> users = new ArrayList<>();

    @JsonPropertyDescription("Read (browse, download, restore) or Append (also create snapshots)")
    @Default("Read")
    public String access;

    public List<String> backups = new ArrayList<>();
    public List<String> namespaces = new ArrayList<>();
    public List<String> tags = new ArrayList<>();
    public Map<String, String> labels = new LinkedHashMap<>();
    public List<String> hosts = new ArrayList<>();

    @JsonPropertyDescription("Path prefixes, such as /data")
    public List<String> paths = new ArrayList<>();
  }

  /** Where the server's certificate comes from. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Tls {
    @JsonPropertyDescription("A kubernetes.io/tls Secret (tls.crt, tls.key), e.g. cert-manager's")
    public LocalObjectReference secretRef;
  }

  /** The Service in front of the server. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Service {
    @JsonPropertyDescription("ClusterIP, NodePort or LoadBalancer")
    @Default("ClusterIP")
    public String type;

    @Min(1)
    @Max(65535)
    @Default("8443")
    public @Nullable Integer port;
  }
}
